//! Build time and expansion size of each fixture with and without
//! `#[mu2::mutate]`.
//!
//! ```sh
//! cargo run --release -p mu2-bench --bin build_time [-- FIXTURE...] [--rounds N] [--no-dev] [--keep]
//! ```
//!
//! For each fixture crate that `build.rs` copied (its `src/` tree as
//! `<OUT_DIR>/<name>/crate-plain/` and `crate-annotated/`), this makes a
//! temporary workspace with two library crates holding the two copies, both
//! depending on `mu2` (so their dependency graphs are identical; the plain
//! one does not use it). All fixtures share one fresh target directory.
//! It measures:
//!
//! 1. cold build, once: the first `cargo build --release` of an annotated
//!    crate, dependencies (mu2, its proc macro, syn, ...) included, in the
//!    empty target directory;
//! 2. rebuild: after touching the crate's `src/lib.rs`, `cargo build` of that
//!    crate only, alternating plain and annotated for `--rounds` rounds
//!    (median), in the release and dev profiles; and a no-op `cargo build`,
//!    cargo's own share, which is subtracted in a second row;
//! 3. code: `cargo rustc --release -- -C codegen-units=1 --emit=llvm-ir,obj`:
//!    LLVM IR instructions in the crate's function bodies, and bytes of the
//!    executable sections of its object file;
//! 4. expansion: `cargo rustc --release -- -Zunpretty=expanded` (with
//!    `RUSTC_BOOTSTRAP=1`, since the flag is unstable; release, so that code
//!    under `cfg(not(debug_assertions))` counts): tokens (as lexed by
//!    proc-macro2; a group's delimiters count as one) and bytes (whitespace
//!    runs collapsed) of the expanded crate. The difference between the two
//!    crates, divided by the number of mutation sites, is the expansion per
//!    site. The `static` metadata of the units (`__MU2_UNIT_*`, with the
//!    registration linkme generates) is also counted apart.
//!
//! The temporary directory is removed unless `--keep` is given.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant, SystemTime};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

struct Opts {
    /// Fixtures to measure (all when empty).
    only: Vec<String>,
    rounds: usize,
    dev: bool,
    keep: bool,
}

/// What was measured for one fixture, for the summary.
struct Summary {
    name: String,
    sites: usize,
    mutants: usize,
    /// Rebuild, less cargo's no-op time: (plain, annotated) per profile.
    rebuild: Vec<(&'static str, Duration, Duration)>,
    tokens: Option<(usize, usize, usize)>,
    ir: Option<(usize, usize)>,
    text: Option<(u64, u64)>,
}

fn main() {
    let mut opts = Opts {
        only: Vec::new(),
        rounds: 5,
        dev: true,
        keep: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rounds" => opts.rounds = it.next().and_then(|n| n.parse().ok()).expect("--rounds N"),
            "--no-dev" => opts.dev = false,
            "--keep" => opts.keep = true,
            name if !name.starts_with('-') => opts.only.push(name.to_string()),
            other => {
                panic!("unknown argument `{other}` (try FIXTURE..., --rounds N, --no-dev, --keep)")
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let base = std::env::temp_dir().join(format!("mu2-build-time-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    fs::create_dir_all(&base).unwrap();
    let target = base.join("target");

    let mut summaries = Vec::new();
    let mut first = true;
    for name in mu2_bench::fixtures::FIXTURES {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == name) {
            continue;
        }
        summaries.push(measure(&root, &base, &target, name, &opts, first));
        first = false;
    }

    println!("## Summary\n");
    println!(
        "| fixture | mutation sites | mutants | rebuild, release: plain / annotated | rebuild, dev: plain / annotated | expanded tokens per site (code only) | LLVM IR instructions per site | machine code bytes per site |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for s in &summaries {
        let rebuild = |profile: &str| {
            s.rebuild
                .iter()
                .find(|r| r.0 == profile)
                .map_or("-".to_string(), |(_, p, a)| {
                    format!(
                        "{} / {} = {:.1}x",
                        secs(*p),
                        secs(*a),
                        a.as_secs_f64() / p.as_secs_f64()
                    )
                })
        };
        let per = |d: f64| {
            if s.sites == 0 {
                "-".to_string()
            } else {
                format!("{:.0}", d / s.sites as f64)
            }
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            s.name,
            s.sites,
            s.mutants,
            rebuild("release"),
            rebuild("dev"),
            s.tokens.map_or("-".into(), |(p, a, st)| format!(
                "{} ({})",
                per(a as f64 - p as f64),
                per(a as f64 - st as f64 - p as f64)
            )),
            s.ir.map_or("-".into(), |(p, a)| per(a as f64 - p as f64)),
            s.text.map_or("-".into(), |(p, a)| per(a as f64 - p as f64)),
        );
    }

    println!(
        "\n(load average at the end: {})",
        fs::read_to_string("/proc/loadavg").map_or("unknown".into(), |l| {
            l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        })
    );
    if opts.keep {
        println!("\n(kept {})", base.display());
    } else {
        let _ = fs::remove_dir_all(&base);
    }
}

fn measure(
    root: &Path,
    base: &Path,
    target: &Path,
    name: &str,
    opts: &Opts,
    first: bool,
) -> Summary {
    let copies = Path::new(mu2_bench::generated::OUT_DIR).join(name);
    let dir = base.join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("Cargo.toml"),
        "[workspace]\nmembers = [\"plain\", \"annotated\"]\nresolver = \"3\"\n\n[profile.release]\ndebug = false\n",
    )
    .unwrap();
    // The same dependency versions as the mu2 workspace, and no network.
    fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let crates = ["plain", "annotated"];
    let package = |c: &str| format!("{name}_{c}");
    for c in crates {
        copy_tree(&copies.join(format!("crate-{c}")), &dir.join(c).join("src"));
        fs::write(
            dir.join(c).join("Cargo.toml"),
            format!(
                "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
                 [dependencies]\nmu2 = {{ path = {:?} }}\n",
                package(c),
                root.display().to_string()
            ),
        )
        .unwrap();
    }
    let run = |args: &[&str]| cargo(&dir, target, args);

    let (sites, mutants) = sites_of(name);
    println!("## fixtures/{name}\n");
    println!("{sites} mutation sites, {mutants} mutants.\n");
    println!("| build | plain | annotated | annotated / plain |");
    println!("|---|---:|---:|---:|");

    // 1. Cold build, for the first fixture only: the others find the
    // dependencies built.
    if first {
        let a = run(&["build", "--release", "-p", &package("annotated")]);
        println!(
            "| cold build of the annotated crate, release, dependencies included | | {} | |",
            secs(a)
        );
    } else {
        run(&["build", "--release", "-p", &package("annotated")]);
    }
    run(&["build", "--release", "-p", &package("plain")]);

    // 2. Rebuilds of the fixture crate alone.
    let mut profiles: Vec<(&'static str, &[&str])> = vec![("release", &["--release"])];
    if opts.dev {
        run(&[
            "build",
            "-p",
            &package("annotated"),
            "-p",
            &package("plain"),
        ]);
        profiles.push(("dev", &[]));
    }
    let mut rebuild = Vec::new();
    for (profile, flags) in profiles {
        let mut times = [Vec::new(), Vec::new()];
        let mut noop = Vec::new();
        for round in 0..opts.rounds {
            for k in 0..2 {
                let k = (k + round) % 2;
                let c = crates[k];
                touch(&dir.join(c).join("src").join("lib.rs"));
                let p = package(c);
                let mut args = vec!["build", "-p", &p];
                args.extend(flags);
                times[k].push(run(&args));
            }
            let mut args = vec!["build"];
            args.extend(flags);
            noop.push(run(&args));
        }
        let (p, a, n) = (
            median(&mut times[0]),
            median(&mut times[1]),
            median(&mut noop),
        );
        println!(
            "| rebuild of the fixture crate, {profile} (median of {}) | {} | {} | {:.2}x |",
            opts.rounds,
            secs(p),
            secs(a),
            a.as_secs_f64() / p.as_secs_f64()
        );
        let (pn, an) = (p.saturating_sub(n), a.saturating_sub(n));
        println!(
            "| same, less a no-op `cargo build` ({}) | {} | {} | {:.2}x |",
            secs(n),
            secs(pn),
            secs(an),
            an.as_secs_f64() / pn.as_secs_f64()
        );
        rebuild.push((profile, pn, an));
    }
    println!();

    // 3. Optimized code; 4. expansion.
    let code: Vec<Option<(usize, u64)>> = crates
        .iter()
        .map(|c| codegen(&dir, target, &package(c)))
        .collect();
    let expanded: Vec<Option<Expansion>> = crates
        .iter()
        .map(|c| expand(&dir, target, &package(c)))
        .collect();

    let per_site = |p: f64, a: f64| {
        if sites == 0 {
            "-".to_string()
        } else {
            format!("{:+.0}", (a - p) / sites as f64)
        }
    };
    println!("| size | plain | annotated | annotated / plain | added per mutation site |");
    println!("|---|---:|---:|---:|---:|");
    let row = |what: &str, p: f64, a: f64| {
        println!(
            "| {what} | {p} | {a} | {:.1}x | {} |",
            a / p,
            per_site(p, a)
        )
    };
    let mut tokens = None;
    if let [Some(e_p), Some(e_a)] = &expanded[..] {
        row(
            "expanded source, tokens",
            e_p.tokens as f64,
            e_a.tokens as f64,
        );
        row(
            "expanded source, tokens, without the units' statics",
            (e_p.tokens - e_p.static_tokens) as f64,
            (e_a.tokens - e_a.static_tokens) as f64,
        );
        row(
            "expanded source, bytes (whitespace collapsed)",
            e_p.bytes as f64,
            e_a.bytes as f64,
        );
        tokens = Some((e_p.tokens, e_a.tokens, e_a.static_tokens));
    } else {
        println!("| expanded source | n/a (`-Zunpretty=expanded` failed, see above) | | | |");
    }
    let (mut ir, mut text) = (None, None);
    if let [Some((ir_p, text_p)), Some((ir_a, text_a))] = &code[..] {
        row("LLVM IR instructions, release", *ir_p as f64, *ir_a as f64);
        row(
            "machine code bytes (executable sections of the object), release",
            *text_p as f64,
            *text_a as f64,
        );
        ir = Some((*ir_p, *ir_a));
        text = Some((*text_p, *text_a));
    } else {
        println!("| optimized code | n/a (`--emit=llvm-ir,obj` failed, see above) | | | |");
    }
    println!();
    Summary {
        name: name.to_string(),
        sites,
        mutants,
        rebuild,
        tokens,
        ir,
        text,
    }
}

/// Mutation sites and mutants of the fixture's annotated copy in this binary.
fn sites_of(name: &str) -> (usize, usize) {
    let module = format!("::fixtures::{name}::annotated");
    let inner = format!("{module}::");
    let mutants: Vec<_> = mu2::mutants()
        .iter()
        .filter(|m| m.module.ends_with(&module) || m.module.contains(&inner))
        .collect();
    let sites: BTreeSet<_> = mutants
        .iter()
        .map(|m| (m.file, m.function, m.line, m.column, m.original))
        .collect();
    (sites.len(), mutants.len())
}

/// Runs cargo in `dir` (offline, output discarded unless it fails); returns how long it took.
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = Command::new(env!("CARGO"))
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .stdout(Stdio::null())
        .output()
        .expect("cargo runs");
    let elapsed = start.elapsed();
    if !out.status.success() {
        panic!(
            "`cargo {}` failed in {}:\n{}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    elapsed
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

fn touch(file: &Path) {
    let f = fs::File::options().write(true).open(file).unwrap();
    f.set_modified(SystemTime::now()).unwrap();
}

fn median(xs: &mut [Duration]) -> Duration {
    xs.sort();
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2
    }
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// LLVM IR instructions and executable bytes of the crate's optimized code.
fn codegen(dir: &Path, target: &Path, package: &str) -> Option<(usize, u64)> {
    let emit: PathBuf = dir.join(format!("emit-{package}"));
    let _ = fs::remove_dir_all(&emit);
    fs::create_dir_all(&emit).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["rustc", "--offline", "--quiet", "--release", "--lib", "-p"])
        .arg(package)
        .args(["--", "-C", "codegen-units=1", "--emit"])
        .arg(format!(
            "llvm-ir={},obj={}",
            emit.join("lib.ll").display(),
            emit.join("lib.o").display()
        ))
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "--emit failed for {package}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let ir = fs::read_to_string(emit.join("lib.ll")).ok()?;
    let obj = fs::read(emit.join("lib.o")).ok()?;
    Some((ir_instructions(&ir), executable_bytes(&obj)?))
}

/// Instructions in function bodies: the indented lines inside
/// `define ... {` ... `}` that are not comments.
fn ir_instructions(ir: &str) -> usize {
    let mut inside = false;
    let mut n = 0;
    for line in ir.lines() {
        if line.starts_with("define ") {
            inside = true;
        } else if inside && line == "}" {
            inside = false;
        } else if inside && line.starts_with("  ") && !line.trim_start().starts_with(';') {
            n += 1;
        }
    }
    n
}

/// Total size of the sections flagged executable in a 64-bit little-endian ELF object.
fn executable_bytes(obj: &[u8]) -> Option<u64> {
    if obj.len() < 64 || &obj[..4] != b"\x7fELF" || obj[4] != 2 || obj[5] != 1 {
        eprintln!("not a 64-bit little-endian ELF object: machine code size not measured");
        return None;
    }
    let u16_at = |o: usize| u16::from_le_bytes(obj[o..o + 2].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(obj[o..o + 8].try_into().unwrap());
    let (shoff, shentsize, shnum) = (u64_at(0x28) as usize, u16_at(0x3a), u16_at(0x3c));
    const SHF_EXECINSTR: u64 = 4;
    let mut total = 0;
    for i in 0..shnum {
        let sh = shoff + i * shentsize;
        if u64_at(sh + 8) & SHF_EXECINSTR != 0 {
            total += u64_at(sh + 32);
        }
    }
    Some(total)
}

struct Expansion {
    tokens: usize,
    /// Tokens of the `static __MU2_UNIT_*` items (the sites' metadata).
    static_tokens: usize,
    bytes: usize,
}

/// The crate after macro expansion, measured.
fn expand(dir: &Path, target: &Path, package: &str) -> Option<Expansion> {
    let out = Command::new(env!("CARGO"))
        .args(["rustc", "--offline", "--quiet", "--release", "--lib", "-p"])
        .arg(package)
        .args(["--", "-Zunpretty=expanded"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env("RUSTC_BOOTSTRAP", "1")
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "-Zunpretty=expanded failed for {package}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let bytes = text.split_whitespace().map(|w| w.len() + 1).sum();
    let stream = match TokenStream::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("the expansion of {package} does not lex: {e}");
            return None;
        }
    };
    Some(Expansion {
        tokens: count(&stream),
        static_tokens: unit_statics(&stream),
        bytes,
    })
}

fn count(stream: &TokenStream) -> usize {
    stream
        .clone()
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => 1 + count(&g.stream()),
            _ => 1,
        })
        .sum()
}

/// Tokens of the items `... static __MU2_UNIT_...: ... ;`, attributes
/// included, at any depth (function bodies and inline modules hold them).
fn unit_statics(stream: &TokenStream) -> usize {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let is_unit = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Ident(name)) if name.to_string().starts_with("__MU2_UNIT_"));
    let mut n = 0;
    let mut item_start = 0;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == ';' => item_start = i + 1,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                n += unit_statics(&g.stream());
                item_start = i + 1;
            }
            TokenTree::Ident(id) if id == "static" && is_unit(tokens.get(i + 1)) => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                    .map_or(tokens.len(), |e| i + e + 1);
                n += count(&tokens[item_start..end].iter().cloned().collect());
                i = end;
                item_start = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    n
}
