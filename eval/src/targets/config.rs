// The config fixture's target. This file is also `include!`d by the
// cargo-fuzz project (see `peers.rs`), so it uses only `mu2` and the fixture
// crate and has no inner doc comments. The generators are the fixture's own
// (`config::generate`), as its drivers use them.

use config::generate::{webapp_and_paths, xml_doc};
use mu2::{Invalid, Source};

/// Either the XML layer alone on a document of the subset (the tree with
/// positions, or the first well-formedness error), or a whole descriptor:
/// the typed configuration or every validation problem, and for a valid one
/// where each request path goes (servlet and filters). Together they reach
/// the parser, the validation and the routing, as the drivers `parses_xml`,
/// `configures` and `routes` do.
pub fn run(src: &mut Source) -> Result<String, Invalid> {
    Ok(if src.bool() {
        format!("{:?}", config::xml::parse(&xml_doc(src)))
    } else {
        let (text, paths) = webapp_and_paths(src);
        let app = config::configure(&text);
        let routes: Vec<_> = match &app {
            Ok(app) => paths
                .iter()
                .map(|p| (app.resolve(p), app.filters_for(p)))
                .collect(),
            Err(_) => Vec::new(),
        };
        format!("{app:?} {routes:?}")
    })
}
