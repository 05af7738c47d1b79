//! The HTML report of `cargo mu2 report`: what the page says, its escaping,
//! its links and plots, and (when Chromium is installed) that a browser
//! renders it from disk.

#[allow(dead_code)]
#[path = "../src/html.rs"]
mod html;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use html::{Campaign, Input, PlotPoint, parse_plot_data, render};
use mu2_runtime::corpus::PLOT_HEADER;
use mu2_runtime::report::{MutantReport, Report, Status};

const FILE: &str = "src/clamp.rs";

/// A source with markup and ampersands in it, and a long stretch without
/// mutants (which folds).
fn source() -> String {
    let mut s = String::from(
        "//! Clamping <script>alert(\"pwned\")</script> & friends.\n\
         \n\
         #[mu2::mutate]\n\
         pub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n\
         \x20   if x < lo { lo } else if x >= hi { hi } else { x }\n\
         }\n\
         \n\
         #[mu2::mutate]\n\
         pub fn both(a: bool, b: bool) -> bool {\n\
         \x20   a && b\n\
         }\n",
    );
    for k in 0..30 {
        s.push_str(&format!("// filler line {k} with <tags> & entities\n"));
    }
    s.push_str(
        "#[mu2::mutate]\n\
         pub fn total(v: &[u32]) -> u32 {\n\
         \x20   let mut t = 0;\n\
         \x20   for x in v { t += x; }\n\
         \x20   t\n\
         }\n",
    );
    s
}

/// Mutant `n` at `(line, column)`: `[operator, original, replacement]`.
fn mutant(
    n: u32,
    (line, column): (u32, u32),
    function: &str,
    [operator, original, replacement]: [&str; 3],
    status: Status,
    killed_by: Option<&str>,
) -> MutantReport {
    MutantReport {
        id: format!("{n:016x}"),
        file: FILE.to_string(),
        line,
        column,
        function: function.to_string(),
        operator: operator.to_string(),
        original: original.to_string(),
        replacement: replacement.to_string(),
        status,
        killed_by: killed_by.map(str::to_string),
    }
}

/// Nine mutants: five killed, one timed out, one survived, one not covered,
/// one unviable; the score is 6/8 = 75.0%.
fn report() -> Report {
    use Status::*;
    Report::new(
        "clamps",
        vec![
            mutant(
                1,
                (4, 8),
                "clamp",
                ["returns", "{ ... }", "0"],
                Killed,
                Some("id_000000"),
            ),
            mutant(
                2,
                (5, 10),
                "clamp",
                ["conditionals_boundary", "<", "<="],
                Killed,
                Some("id_000002"),
            ),
            mutant(
                3,
                (5, 10),
                "clamp",
                ["negate_conditionals", "<", ">="],
                Killed,
                Some("id_000001"),
            ),
            mutant(
                4,
                (5, 32),
                "clamp",
                ["conditionals_boundary", ">=", ">"],
                Survived,
                None,
            ),
            mutant(
                5,
                (5, 30),
                "clamp",
                ["remove_conditionals", "x >= hi", "true"],
                Killed,
                Some("id_000003"),
            ),
            mutant(
                6,
                (10, 7),
                "both",
                ["boolean", "&&", "||"],
                TimedOut,
                Some("id_000004"),
            ),
            mutant(
                7,
                (10, 5),
                "both",
                ["returns", "a && b", "false"],
                Killed,
                Some("id_000001"),
            ),
            mutant(8, (45, 20), "total", ["math", "+=", "-="], NoCoverage, None),
            mutant(
                9,
                (45, 20),
                "total",
                ["increments", "+=", "*="],
                Unviable,
                None,
            ),
        ],
    )
}

fn rows(killed: &[f64]) -> Vec<PlotPoint> {
    killed
        .iter()
        .enumerate()
        .map(|(i, &k)| PlotPoint {
            elapsed: i as f64 * 10.0 + 1.0,
            coverage: 3.0 + k,
            killed: k,
            execs: 1000.0 * (i + 1) as f64,
            corpus: 2.0 + k,
        })
        .collect()
}

fn campaigns() -> Vec<Campaign> {
    vec![
        Campaign {
            label: "mutation".into(),
            rows: rows(&[1.0, 3.0, 4.0, 5.0, 6.0, 6.0, 6.0]),
            score: Some(87.5),
        },
        Campaign {
            label: "coverage <zest> & co".into(),
            rows: rows(&[1.0, 2.0, 2.0, 3.0, 4.0]),
            score: None,
        },
    ]
}

/// A fresh folder under cargo's temporary folder for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("mu2-html")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The page for the sample driver, written at `<dir>/report.html`, with the
/// corpus at `<dir>/mu2/clamps/corpus`.
fn sample_page(dir: &Path) -> (PathBuf, String) {
    let corpus = dir.join("mu2").join("clamps").join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    for k in 0..5 {
        std::fs::write(corpus.join(format!("id_{k:06}")), [k as u8; 4]).unwrap();
    }
    let report = report();
    let sources = BTreeMap::from([(FILE.to_string(), source())]);
    let campaigns = campaigns();
    let html_path = dir.join("report.html");
    let page = render(
        &[Input {
            report: &report,
            sources: &sources,
            corpus_dir: Some(&corpus),
            campaigns: &campaigns,
        }],
        &html_path,
    );
    std::fs::write(&html_path, &page).unwrap();
    (html_path, page)
}

/// The text between the `n`th `<svg` and its `</svg>`.
fn svg(page: &str, n: usize) -> &str {
    let start = page.match_indices("<svg").nth(n).expect("an svg").0;
    let end = start + page[start..].find("</svg>").unwrap();
    &page[start..end]
}

#[test]
fn the_page_shows_the_score_survivors_links_and_plots() {
    let dir = scratch("contents");
    let (_, page) = sample_page(&dir);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("75.0%"), "the score");
    assert!(page.contains("6 of 8 viable mutants detected"));
    assert!(page.contains("(1 unviable not counted)"));

    // The summary comes first, then the survivors, then the files, then plots.
    let summary = page.find("mutation score").unwrap();
    let survivors = page.find("Survived mutants").unwrap();
    let files = page.find("Annotated source").unwrap();
    let plots = page.find("Campaigns").unwrap();
    assert!(summary < survivors && survivors < files && files < plots);

    // The survivor, with its place, its source line (the mutated operator
    // marked), its replacement and why it matters.
    let card_start = page.find("<li class=\"card\"").unwrap();
    let card = &page[card_start..card_start + page[card_start..].find("</li>").unwrap()];
    assert!(card.contains("src/clamp.rs:5:32"), "{card}");
    assert!(card.contains("in <code>clamp</code>"));
    assert!(
        card.contains(
            "<span class=\"ln\">5</span>if x &lt; lo { lo } else if x \
             <mark class=\"st-survived\">&gt;=</mark> hi { hi } else { x }"
        ),
        "{card}"
    );
    assert!(card.contains("<code>&gt;=</code> <span class=\"arrow\">→</span> <code>&gt;</code>"));
    assert!(
        card.contains(
            "No saved input tells <code>a &gt;= b</code> apart from <code>a &gt; b</code>"
        )
    );
    assert_eq!(
        page.matches("<li class=\"card\"").count(),
        1,
        "only survivors get a card"
    );

    // Killed mutants link to the input that kills them, relative to the page.
    assert!(page.contains(
        "killed by <a class=\"input\" href=\"mu2/clamps/corpus/id_000002\">id_000002</a>"
    ));
    assert!(page.contains("href=\"mu2/clamps/corpus/id_000002.json\">json</a>"));
    assert!(page.contains("timed out by <a class=\"input\" href=\"mu2/clamps/corpus/id_000004\">"));

    // Every status shows in the file view; the filler folds.
    for class in ["killed", "survived", "no-coverage", "timed-out", "unviable"] {
        assert!(
            page.contains(&format!("<div class=\"m {class}\"")),
            "{class}"
        );
    }
    assert!(page.contains(
        "<details class=\"fold\"><summary>lines 14–41 (28 lines without mutants)</summary>"
    ));
    // By operator and by file.
    assert!(page.contains("<td><code>conditionals_boundary</code></td><td class=\"num\">2</td>"));
    assert!(page.contains("<a href=\"#d0-f0\"><code>src/clamp.rs</code></a>"));

    // The campaigns' last rows.
    assert!(page.contains("mutation</td><td class=\"num\">1m01s</td><td class=\"num\">7,000</td>"));
    // With the score of each campaign's corpus, when it was scored.
    assert!(page.contains("<td class=\"num\">87.5%</td></tr>"), "{page}");
    assert!(page.contains("<td class=\"num\">–</td></tr>"));

    // Two plots, each with one polyline per campaign and a legend.
    assert_eq!(page.matches("<svg").count(), 2);
    for n in 0..2 {
        let svg = svg(&page, n);
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert!(svg.contains(">mutation</text>"));
        assert!(svg.contains(">coverage &lt;zest&gt; &amp; co</text>"));
        assert!(svg.contains("time since the campaign started"));
    }
    assert!(svg(&page, 0).contains("Mutants killed over time"));
    assert!(svg(&page, 1).contains("Coverage over time"));
    // Ticks: 0 to 70 s on the x axis, 0 to 6 mutants killed on the y axis.
    assert!(svg(&page, 0).contains(">1m</text>"), "{}", svg(&page, 0));
    assert!(svg(&page, 0).contains(">6</text>"));

    // Self-contained: no scripts, no remote resources.
    assert!(!page.contains("<script"));
    assert!(
        !page.contains("http://")
            || !page
                .replace("http://www.w3.org/2000/svg", "")
                .contains("http://")
    );
    assert!(!page.contains("https://"));
}

#[test]
fn everything_from_the_report_and_sources_is_escaped() {
    let mut report = report();
    report.driver = "d\"><script>alert(1)</script>".into();
    report.mutants[3].function = "f<T: Into<&'static str>>".into();
    report.mutants[3].replacement = "</code><script>".into();
    let sources = BTreeMap::from([(FILE.to_string(), source())]);
    let campaigns = vec![Campaign {
        label: "<script>x</script> & y".into(),
        rows: rows(&[1.0, 2.0]),
        score: None,
    }];
    let page = render(
        &[Input {
            report: &report,
            sources: &sources,
            corpus_dir: Some(Path::new("corpus dir/<a>&\"")),
            campaigns: &campaigns,
        }],
        Path::new("report.html"),
    );
    assert!(!page.contains("<script"), "raw markup from the inputs");
    assert!(
        page.contains(
            "Clamping &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; friends."
        )
    );
    assert!(page.contains("filler line 0 with &lt;tags&gt; &amp; entities"));
    assert!(page.contains("<code>f&lt;T: Into&lt;&amp;&#39;static str&gt;&gt;</code>"));
    assert!(page.contains("<code>&lt;/code&gt;&lt;script&gt;</code>"));
    assert!(page.contains("&lt;script&gt;x&lt;/script&gt; &amp; y"));
    assert!(page.contains(
        "<title>mu2 mutation report: d&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"
    ));
    // Paths in links are percent-encoded.
    assert!(
        page.contains("corpus%20dir/%3Ca%3E%26%22/id_000002\""),
        "a percent-encoded link"
    );
}

#[test]
fn links_are_relative_to_the_pages_folder() {
    let dir = scratch("links");
    let corpus = dir.join("crate").join("mu2").join("clamps").join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let report = report();
    let sources = BTreeMap::new();
    let page = render(
        &[Input {
            report: &report,
            sources: &sources,
            corpus_dir: Some(&corpus),
            campaigns: &[],
        }],
        &dir.join("target").join("mu2").join("report.html"),
    );
    assert!(
        page.contains("href=\"../../crate/mu2/clamps/corpus/id_000001\""),
        "a relative link"
    );
    // Without sources, mutants are listed by line; without plot data, a note.
    assert!(page.contains("Source not available: mutants by line."));
    assert!(page.contains("No plot data"));
    assert_eq!(page.matches("<svg").count(), 0);
}

#[test]
fn several_drivers_share_a_page() {
    let a = report();
    let mut b = report();
    b.driver = "other".into();
    b.mutants.truncate(3);
    let sources = BTreeMap::from([(FILE.to_string(), source())]);
    let input = |r| Input {
        report: r,
        sources: &sources,
        corpus_dir: None,
        campaigns: &[],
    };
    let page = render(&[input(&a), input(&b)], Path::new("report.html"));
    assert!(page.contains("<a href=\"#d0\"><code>clamps</code></a>"));
    assert!(page.contains("<a href=\"#d1\"><code>other</code></a>"));
    assert!(page.contains("<section class=\"driver\" id=\"d1\">"));
    assert!(page.contains("100.0%"));
    // Without a corpus folder, the killing input is named, not linked.
    assert!(page.contains("killed by <code>id_000002</code>"));
}

#[test]
fn plot_data_is_read_by_its_header() {
    // The header mu2 writes, and rows as it writes them.
    let csv = format!(
        "{PLOT_HEADER}\n\
         1700000000.250,1.000,100,1234.6,3,2,40,30,90,10,1,50,20,45,2.50\n\
         1700000001.250,2.000,300,1500.0,5,2,44,30,290,10,1,50,23,45,2.50\n"
    );
    let rows = parse_plot_data(&csv).unwrap();
    assert_eq!(
        rows,
        vec![
            PlotPoint {
                elapsed: 1.0,
                coverage: 40.0,
                killed: 20.0,
                execs: 100.0,
                corpus: 3.0
            },
            PlotPoint {
                elapsed: 2.0,
                coverage: 44.0,
                killed: 23.0,
                execs: 300.0,
                corpus: 5.0
            },
        ]
    );

    // Columns in another order, extra ones, missing optional ones, blank
    // lines and a last line cut short.
    let rows = parse_plot_data("extra,corpus,elapsed\n\n7,2,0.5\n8,3,1.5\n9,4").unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].elapsed, 1.5);
    assert_eq!(rows[1].corpus, 3.0);
    assert!(rows[1].coverage.is_nan() && rows[1].killed.is_nan() && rows[1].execs.is_nan());

    // A campaign that did not track mutants (coverage guidance) has no kills.
    let rows = parse_plot_data("elapsed,mutants_total,mutants_killed\n1,0,0\n2,5,1\n").unwrap();
    assert!(rows[0].killed.is_nan());
    assert_eq!(rows[1].killed, 1.0);

    // A resumed campaign: the second session follows the first.
    let rows =
        parse_plot_data("elapsed,execs,mutants_killed\n1,10,1\n2,20,2\n1,5,2\n2,15,3\n").unwrap();
    let elapsed: Vec<f64> = rows.iter().map(|r| r.elapsed).collect();
    let execs: Vec<f64> = rows.iter().map(|r| r.execs).collect();
    assert_eq!(elapsed, [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(execs, [10.0, 20.0, 25.0, 35.0]);

    // Errors name the problem.
    assert!(
        parse_plot_data("a,b\n1,2\n")
            .unwrap_err()
            .contains("no `elapsed` column")
    );
    let err = parse_plot_data("elapsed,coverage\n1,2\nx,y\n3,4\n").unwrap_err();
    assert!(err.starts_with("line 3:"), "{err}");
    assert_eq!(parse_plot_data("").unwrap(), vec![]);

    // The fixture's real files parse.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sort/mu2");
    if let Ok(entries) = std::fs::read_dir(&fixtures) {
        for e in entries.flatten() {
            let path = e.path().join("plot_data.csv");
            if path.exists() {
                let c = Campaign::read("fixture", &path).unwrap();
                assert!(
                    c.rows
                        .iter()
                        .all(|r| r.elapsed.is_finite() && r.coverage.is_finite())
                );
            }
        }
    }
}

fn chromium() -> Option<PathBuf> {
    let candidates = ["chromium", "chromium-browser"];
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .chain([PathBuf::from("/usr/bin")])
    {
        for name in candidates {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Runs Chromium headless with a fresh profile, stdout to a file; kills it
/// after a minute.
fn run_chromium(bin: &Path, dir: &Path, args: &[String], stdout: &Path) -> bool {
    let profile = dir.join(format!("profile-{}", args.len()));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(stdout).unwrap())
        .stderr(std::fs::File::create(dir.join("chromium.stderr")).unwrap())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Loads the sample page from disk in headless Chromium: the rendered DOM has
/// the summary, the survivor and the plots, and a screenshot has content.
/// The page and the screenshot stay in `target/tmp/mu2-html/chromium/`.
#[test]
fn chromium_renders_the_page_from_disk() {
    let Some(bin) = chromium() else {
        eprintln!("chromium not found: install Debian's `chromium` package to run this check");
        return;
    };
    let dir = scratch("chromium");
    let (html_path, _) = sample_page(&dir);
    let url = format!("file://{}", html_path.canonicalize().unwrap().display());

    let dom_path = dir.join("dom.html");
    let ok = run_chromium(&bin, &dir, &["--dump-dom".into(), url.clone()], &dom_path);
    let dom = std::fs::read_to_string(&dom_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(dir.join("chromium.stderr")).unwrap_or_default();
    assert!(ok && !dom.is_empty(), "chromium failed:\n{stderr}");
    assert!(dom.contains("mutation score"), "{dom}");
    assert!(dom.contains("75.0%"));
    assert!(dom.contains("src/clamp.rs:5:32"));
    assert!(dom.contains("<mark class=\"st-survived\">&gt;=</mark>"));
    assert!(dom.contains("<svg"));
    assert_eq!(dom.matches("<polyline").count(), 4);
    assert!(!dom.contains("<script"));

    let png = dir.join("screenshot.png");
    let ok = run_chromium(
        &bin,
        &dir,
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1200,3200".into(),
            url,
        ],
        &dir.join("screenshot.stdout"),
    );
    let size = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
    assert!(ok && size > 20_000, "screenshot of {size} bytes");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    eprintln!(
        "page: {}\nscreenshot: {}",
        html_path.display(),
        png.display()
    );
}
