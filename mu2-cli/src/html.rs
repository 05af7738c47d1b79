//! The HTML mutation report that `cargo mu2 report` writes: one
//! self-contained page (inline CSS and SVG, no JavaScript, no network) for
//! one or more drivers.
//!
//! For each driver, in order: the summary (mutation score, counts by status,
//! by operator and by file), the survived mutants with their source lines and
//! why each is worth a look, every annotated file with its mutants inline
//! under their lines (killed ones linking to the corpus input that kills
//! them), and plots of the campaigns' `plot_data.csv` (mutants killed and
//! coverage over time, one line per campaign).
//!
//! Everything taken from reports, sources, labels and paths is escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use mu2_runtime::report::{MutantReport, Report, Status};

/// One row of a campaign's `plot_data.csv`. A value whose column the file
/// lacks is NaN (and is left out of the plots).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct PlotPoint {
    /// Seconds since the campaign started (sessions of a resumed campaign
    /// follow one another; see [`parse_plot_data`]).
    pub elapsed: f64,
    /// Branches covered (`coverage`).
    pub coverage: f64,
    /// Mutants killed by the saved corpus (`mutants_killed`).
    pub killed: f64,
    /// Executions so far (`execs`).
    pub execs: f64,
    /// Saved inputs (`corpus`).
    pub corpus: f64,
}

/// The plot data of one campaign, named for the legend (say `"mutation"`
/// and `"coverage"` for runs of one driver under each guidance).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Campaign {
    pub label: String,
    pub rows: Vec<PlotPoint>,
    /// The mutation score of the campaign's corpus, when it has been scored.
    pub score: Option<f64>,
}

impl Campaign {
    /// Reads a `plot_data.csv` file.
    pub fn read(label: &str, path: &Path) -> Result<Campaign, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let rows = parse_plot_data(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Campaign {
            label: label.to_string(),
            rows,
            score: None,
        })
    }
}

/// What the page shows for one driver.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    pub report: &'a Report,
    /// Source text by file path, as the report spells the path. A file that
    /// is missing here is shown as a list of mutants by line.
    pub sources: &'a BTreeMap<String, String>,
    /// The driver's `corpus/` folder: killed mutants link to the input file
    /// that kills them (a link relative to the HTML file's folder).
    pub corpus_dir: Option<&'a Path>,
    /// Campaigns of this driver to plot together (may be empty).
    pub campaigns: &'a [Campaign],
}

/// Parses mu2's `plot_data.csv` by its header's column names.
///
/// `elapsed` is required (or `unix_time`, from which it is computed);
/// `coverage`, `mutants_killed`, `execs` and `corpus` are read when present
/// and NaN otherwise; other columns are ignored. A row whose `mutants_total`
/// is 0 did not track mutants (coverage or random guidance): its `killed` is
/// NaN. Blank lines and repeated
/// headers are skipped, as is a last line cut short. When `elapsed` (or
/// `execs`) goes back, a resumed campaign started a new session, and its rows
/// are shifted to follow the previous session's.
pub fn parse_plot_data(csv: &str) -> Result<Vec<PlotPoint>, String> {
    let mut lines = csv
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Ok(Vec::new());
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |name: &str| names.iter().position(|n| *n == name);
    let unix = col("unix_time");
    let elapsed = col("elapsed");
    if elapsed.is_none() && unix.is_none() {
        return Err(format!(
            "no `elapsed` column in the header `{}`: not a mu2 plot_data.csv",
            header.trim()
        ));
    }
    let coverage = col("coverage");
    let killed = col("mutants_killed").or(col("killed"));
    let execs = col("execs");
    let corpus = col("corpus");
    let mutants_total = col("mutants_total");

    let lines: Vec<(usize, &str)> = lines.collect();
    let mut rows = Vec::new();
    let mut first_unix = None;
    let (mut time_offset, mut exec_offset) = (0.0, 0.0);
    let (mut last_raw_elapsed, mut last_raw_execs) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for (i, &(number, line)) in lines.iter().enumerate() {
        if line.trim() == header.trim() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed: Result<Vec<f64>, _> = fields.iter().map(|f| f.parse::<f64>()).collect();
        let values = match parsed {
            Ok(v) if v.len() >= names.len() => v,
            _ if i + 1 == lines.len() => break, // cut short by an interrupted write
            _ => {
                return Err(format!(
                    "line {}: expected {} numbers, found `{line}`",
                    number + 1,
                    names.len()
                ));
            }
        };
        let get = |c: Option<usize>| c.map_or(f64::NAN, |c| values[c]);
        let raw_elapsed = match elapsed {
            Some(c) => values[c],
            None => {
                let t = get(unix);
                t - *first_unix.get_or_insert(t)
            }
        };
        let raw_execs = get(execs);
        if raw_elapsed < last_raw_elapsed {
            time_offset += last_raw_elapsed;
            if raw_execs < last_raw_execs {
                exec_offset += last_raw_execs;
            }
        }
        last_raw_elapsed = raw_elapsed;
        last_raw_execs = raw_execs;
        rows.push(PlotPoint {
            elapsed: raw_elapsed + time_offset,
            coverage: get(coverage),
            killed: if get(mutants_total) == 0.0 {
                f64::NAN
            } else {
                get(killed)
            },
            execs: raw_execs + exec_offset,
            corpus: get(corpus),
        });
    }
    Ok(rows)
}

/// Reads the source of every file the reports name, trying each root in
/// turn (report paths are relative to where the driver's test ran: the
/// workspace root for a workspace member). Unreadable files are left out.
pub fn read_sources<'r>(
    reports: impl IntoIterator<Item = &'r Report>,
    roots: &[&Path],
) -> BTreeMap<String, String> {
    let mut sources = BTreeMap::new();
    for report in reports {
        for m in &report.mutants {
            if sources.contains_key(&m.file) {
                continue;
            }
            if let Some(text) = roots
                .iter()
                .find_map(|root| std::fs::read_to_string(root.join(&m.file)).ok())
            {
                sources.insert(m.file.clone(), text);
            }
        }
    }
    sources
}

/// Renders one self-contained HTML page for the given drivers. `html_path`
/// is where the page will be written: links to corpus inputs are relative to
/// its folder.
pub fn render(inputs: &[Input], html_path: &Path) -> String {
    let page_dir = match html_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out = String::with_capacity(64 * 1024);
    let title = match inputs {
        [one] => format!("mu2 mutation report: {}", one.report.driver),
        _ => format!("mu2 mutation report: {} drivers", inputs.len()),
    };
    w(
        &mut out,
        format_args!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"cargo mu2 report\">\n\
             <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
            esc(&title)
        ),
    );
    w(
        &mut out,
        format_args!(
            "<header class=\"page\"><h1>mu2 mutation report</h1>\
             <p class=\"muted\">{} · mutation score = detected (killed, timed out or crashed) \
             over all mutants but unviable ones</p></header>\n",
            match inputs {
                [one] => format!("driver <code>{}</code>", esc(&one.report.driver)),
                _ => format!("{} drivers", inputs.len()),
            }
        ),
    );
    if inputs.is_empty() {
        out.push_str(
            "<p>No reports: score a corpus first (<code>MU2=score cargo test</code>).</p>\n",
        );
    }
    if inputs.len() > 1 {
        out.push_str("<nav class=\"drivers\"><table><thead><tr><th>driver</th><th class=\"num\">mutants</th><th class=\"num\">survived</th><th class=\"num\">score</th><th></th></tr></thead><tbody>\n");
        for (d, input) in inputs.iter().enumerate() {
            let counts = Counts::of(input.report.mutants.iter());
            w(
                &mut out,
                format_args!(
                    "<tr><td><a href=\"#d{d}\"><code>{}</code></a></td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"barcell\">{}</td></tr>\n",
                    esc(&input.report.driver),
                    counts.total(),
                    counts.get(Status::Survived),
                    counts.score_text(),
                    counts.stack()
                ),
            );
        }
        out.push_str("</tbody></table></nav>\n");
    }
    for (d, input) in inputs.iter().enumerate() {
        driver_section(&mut out, d, input, &page_dir);
    }
    out.push_str(
        "<footer class=\"muted\">Written by <code>cargo mu2 report</code> from the drivers' \
         <code>report.json</code> (<code>MU2=score</code>) and <code>plot_data.csv</code>.</footer>\n\
         </body>\n</html>\n",
    );
    out
}

// ---------------------------------------------------------------------------
// Statuses and counts

/// The order statuses are listed in: detected ones first, then the gaps.
const STATUSES: [Status; 6] = [
    Status::Killed,
    Status::TimedOut,
    Status::Crashed,
    Status::Survived,
    Status::NoCoverage,
    Status::Unviable,
];

fn slot(s: Status) -> usize {
    STATUSES.iter().position(|&t| t == s).unwrap_or(0)
}

fn class(s: Status) -> &'static str {
    match s {
        Status::Killed => "killed",
        Status::Survived => "survived",
        Status::NoCoverage => "no-coverage",
        Status::TimedOut => "timed-out",
        Status::Unviable => "unviable",
        Status::Crashed => "crashed",
    }
}

fn meaning(s: Status) -> &'static str {
    match s {
        Status::Killed => "a saved input tells it apart: another output, a panic or validity",
        Status::Survived => "saved inputs run it and none tells it apart: a gap in the tests",
        Status::NoCoverage => "no saved input reaches its code",
        Status::TimedOut => "a saved input makes it run out of its budget",
        Status::Unviable => "the replacement does not type-check here (not counted)",
        Status::Crashed => "it took the process down (abort, hang, out of memory)",
    }
}

/// Which status shows when several mutants share a character or a line: the
/// ones that need a look win.
fn urgency(s: Status) -> u8 {
    match s {
        Status::Unviable => 1,
        Status::Killed => 2,
        Status::TimedOut => 3,
        Status::Crashed => 4,
        Status::NoCoverage => 5,
        Status::Survived => 6,
    }
}

#[derive(Clone, Copy, Default)]
struct Counts([usize; 6]);

impl Counts {
    fn of<'m>(mutants: impl Iterator<Item = &'m MutantReport>) -> Counts {
        let mut c = Counts::default();
        for m in mutants {
            c.0[slot(m.status)] += 1;
        }
        c
    }
    fn get(&self, s: Status) -> usize {
        self.0[slot(s)]
    }
    fn total(&self) -> usize {
        self.0.iter().sum()
    }
    fn detected(&self) -> usize {
        STATUSES
            .iter()
            .filter(|s| s.detected())
            .map(|&s| self.get(s))
            .sum()
    }
    fn viable(&self) -> usize {
        self.total() - self.get(Status::Unviable)
    }
    fn score_text(&self) -> String {
        if self.viable() == 0 {
            "–".to_string()
        } else {
            format!(
                "{:.1}%",
                100.0 * self.detected() as f64 / self.viable() as f64
            )
        }
    }
    /// A bar split by status, in proportion.
    fn stack(&self) -> String {
        let total = self.total().max(1) as f64;
        let mut s = String::from("<span class=\"stack\">");
        for st in STATUSES {
            let n = self.get(st);
            if n > 0 {
                w(
                    &mut s,
                    format_args!(
                        "<span class=\"bg-{}\" style=\"width:{:.2}%\" title=\"{} {n}\"></span>",
                        class(st),
                        100.0 * n as f64 / total,
                        st.name()
                    ),
                );
            }
        }
        s.push_str("</span>");
        s
    }
}

fn badge(s: Status) -> String {
    format!("<span class=\"badge {}\">{}</span>", class(s), s.name())
}

// ---------------------------------------------------------------------------
// One driver

fn driver_section(out: &mut String, d: usize, input: &Input, page_dir: &Path) {
    let report = input.report;
    let counts = Counts::of(report.mutants.iter());
    w(
        out,
        format_args!(
            "<section class=\"driver\" id=\"d{d}\">\n<h2>Driver <code>{}</code></h2>\n",
            esc(&report.driver)
        ),
    );

    // (1) Summary.
    let score_line = if counts.total() == 0 {
        "no mutants in this report".to_string()
    } else {
        format!(
            "{} of {} viable mutants detected{}",
            counts.detected(),
            counts.viable(),
            match counts.get(Status::Unviable) {
                0 => String::new(),
                n => format!(" ({n} unviable not counted)"),
            }
        )
    };
    w(
        out,
        format_args!(
            "<div class=\"summary\">\n<div class=\"score\"><div class=\"big\">{}</div>\
             <div class=\"label\">mutation score</div><div class=\"muted\">{}</div>{}</div>\n",
            counts.score_text(),
            score_line,
            counts.stack()
        ),
    );
    out.push_str("<table class=\"counts\"><tbody>\n");
    for st in STATUSES {
        let n = counts.get(st);
        w(
            out,
            format_args!(
                "<tr><td>{}</td><td class=\"num\">{n}</td><td class=\"barcell\"><span class=\"bar\">\
                 <span class=\"bg-{}\" style=\"width:{:.2}%\"></span></span></td><td class=\"muted small\">{}</td></tr>\n",
                badge(st),
                class(st),
                100.0 * n as f64 / counts.total().max(1) as f64,
                meaning(st)
            ),
        );
    }
    out.push_str("</tbody></table>\n</div>\n");

    let mut by_operator: BTreeMap<&str, Vec<&MutantReport>> = BTreeMap::new();
    let mut by_file: BTreeMap<&str, Vec<(usize, &MutantReport)>> = BTreeMap::new();
    for (i, m) in report.mutants.iter().enumerate() {
        by_operator.entry(&m.operator).or_default().push(m);
        by_file.entry(&m.file).or_default().push((i, m));
    }
    let file_ids: BTreeMap<&str, usize> =
        by_file.keys().enumerate().map(|(i, f)| (*f, i)).collect();

    out.push_str("<div class=\"tables\">\n");
    let mut operators: Vec<(&str, Counts)> = by_operator
        .iter()
        .map(|(op, ms)| (*op, Counts::of(ms.iter().copied())))
        .collect();
    operators.sort_by(|a, b| b.1.total().cmp(&a.1.total()).then(a.0.cmp(b.0)));
    breakdown_table(
        out,
        "operator",
        operators
            .iter()
            .map(|(op, c)| (format!("<code>{}</code>", esc(op)), *c)),
    );
    breakdown_table(
        out,
        "file",
        by_file.iter().map(|(file, ms)| {
            (
                format!(
                    "<a href=\"#d{d}-f{}\"><code>{}</code></a>",
                    file_ids[file],
                    esc(file)
                ),
                Counts::of(ms.iter().map(|(_, m)| *m)),
            )
        }),
    );
    out.push_str("</div>\n");

    // (2) Survived mutants.
    let mut survived: Vec<(usize, &MutantReport)> = report
        .mutants
        .iter()
        .enumerate()
        .filter(|(_, m)| m.status == Status::Survived)
        .collect();
    survived
        .sort_by(|a, b| (&a.1.file, a.1.line, a.1.column).cmp(&(&b.1.file, b.1.line, b.1.column)));
    w(
        out,
        format_args!(
            "<h3>Survived mutants <span class=\"count\">{}</span></h3>\n",
            survived.len()
        ),
    );
    if survived.is_empty() {
        out.push_str(
            "<p class=\"muted\">None: every mutant the saved inputs reach is told apart from the original.</p>\n",
        );
    } else {
        out.push_str(
            "<p class=\"muted\">Saved inputs run these, and none tells them apart from the original: \
             each is a missing test, or an equivalent mutant.</p>\n<ol class=\"survivors\">\n",
        );
        for (i, m) in &survived {
            let line = input
                .sources
                .get(&m.file)
                .and_then(|text| text.lines().nth((m.line as usize).wrapping_sub(1)));
            w(
                out,
                format_args!(
                    "<li class=\"card\" id=\"d{d}-s{i}\"><div class=\"where\"><a href=\"#d{d}-m{i}\"><code>{}:{}:{}</code></a> \
                     in <code>{}</code> <span class=\"op\">{}</span></div>\n",
                    esc(&m.file),
                    m.line,
                    m.column,
                    esc(&m.function),
                    esc(&m.operator)
                ),
            );
            if let Some(line) = line {
                let trimmed = line.trim_start();
                let indent = line.chars().count() - trimmed.chars().count();
                let chars: Vec<char> = trimmed.chars().collect();
                let mut ranks = vec![0u8; chars.len()];
                if let Some((a, b)) = span(line, m) {
                    for r in &mut ranks[a.saturating_sub(indent)..b.saturating_sub(indent)] {
                        *r = urgency(m.status);
                    }
                }
                w(
                    out,
                    format_args!(
                        "<pre class=\"line\"><span class=\"ln\">{}</span>{}</pre>\n",
                        m.line,
                        marked(&chars, &ranks)
                    ),
                );
            }
            w(
                out,
                format_args!(
                    "<div class=\"change\">{} <span class=\"arrow\">→</span> {}</div>\n<p class=\"why\">{}</p></li>\n",
                    code_or(&m.original, "(the body)"),
                    code_or(&m.replacement, "(removed)"),
                    why(m)
                ),
            );
        }
        out.push_str("</ol>\n");
    }
    let uncovered = counts.get(Status::NoCoverage);
    if uncovered > 0 {
        w(
            out,
            format_args!(
                "<p class=\"muted\">{uncovered} more mutant{} no saved input reaches \
                 (<span class=\"badge no-coverage\">NO_COVERAGE</span> below): a driver that does not \
                 call that code, or inputs that never get there.</p>\n",
                if uncovered == 1 { "" } else { "s" }
            ),
        );
    }

    // (3) Files.
    out.push_str("<h3>Annotated source</h3>\n<p class=\"legend\">");
    for st in STATUSES {
        out.push_str(&badge(st));
        out.push(' ');
    }
    out.push_str("<span class=\"muted\">marked code is mutated; a line number takes the colour of its most urgent mutant</span></p>\n");
    for (file, mutants) in &by_file {
        file_view(out, d, file_ids[file], file, mutants, input, page_dir);
    }

    // (4) Campaigns.
    plots(out, d, input.campaigns);
    out.push_str("</section>\n");
}

fn breakdown_table(out: &mut String, what: &str, rows: impl Iterator<Item = (String, Counts)>) {
    w(
        out,
        format_args!(
            "<table class=\"breakdown\"><thead><tr><th>{what}</th><th class=\"num\">mutants</th>\
             <th class=\"num\">detected</th><th class=\"num\">survived</th><th class=\"num\">no cov.</th>\
             <th></th><th class=\"num\">score</th></tr></thead><tbody>\n"
        ),
    );
    for (name, c) in rows {
        w(
            out,
            format_args!(
                "<tr><td>{name}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num{}\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"barcell\">{}</td><td class=\"num\">{}</td></tr>\n",
                c.total(),
                c.detected(),
                if c.get(Status::Survived) > 0 {
                    " bad"
                } else {
                    ""
                },
                c.get(Status::Survived),
                c.get(Status::NoCoverage),
                c.stack(),
                c.score_text()
            ),
        );
    }
    out.push_str("</tbody></table>\n");
}

fn code_or(text: &str, empty: &str) -> String {
    if text.trim().is_empty() {
        format!("<span class=\"muted\">{empty}</span>")
    } else {
        format!("<code>{}</code>", esc(text))
    }
}

/// One sentence on why a survived mutant is worth a look.
fn why(m: &MutantReport) -> String {
    let o = esc(&m.original);
    let r = esc(&m.replacement);
    let f = esc(&m.function);
    match m.operator.as_str() {
        "conditionals_boundary" => format!(
            "No saved input tells <code>a {o} b</code> apart from <code>a {r} b</code>: an input on \
             the boundary (both sides equal) is missing, or the mutant is equivalent."
        ),
        "negate_conditionals" => format!(
            "Even with the comparison reversed (<code>{o}</code> to <code>{r}</code>) no output \
             changes: what this comparison decides is never checked, or both ways end alike."
        ),
        "remove_conditionals" => {
            let other = if m.replacement.trim() == "false" {
                "true"
            } else {
                "false"
            };
            format!(
                "With <code>{o}</code> forced to <code>{r}</code> no output changes: no saved input \
                 takes the path where it is <code>{other}</code> and checks the result, or the \
                 condition is redundant."
            )
        }
        "math" => format!(
            "No saved input tells <code>a {o} b</code> apart from <code>a {r} b</code>: the result \
             never reaches a checked output, or the inputs only use values on which both agree \
             (such as 0 or 1)."
        ),
        "increments" => format!(
            "Stepping the other way (<code>{o}</code> to <code>{r}</code>) changes no output: the \
             value updated here is never checked."
        ),
        "invert_negatives" => "Dropping the minus sign changes no output: no saved input gives a \
             non-zero value here whose sign is then checked."
            .to_string(),
        "boolean" if m.original.trim() == "!" || m.original.trim_start().starts_with('!') => {
            "Dropping the negation changes no output: this condition's value is never checked, or \
             both outcomes end alike."
                .to_string()
        }
        "boolean" => format!(
            "No saved input makes the two sides of <code>{o}</code> disagree where it matters: an \
             input where exactly one side holds is missing."
        ),
        "void_calls" => format!(
            "Removing <code>{o}</code> changes no output: no saved input checks its effect."
        ),
        "returns" => format!(
            "Replacing the body of <code>{f}</code> with <code>{r}</code> changes no output: no \
             saved input checks what <code>{f}</code> returns."
        ),
        _ => "No saved input tells this mutant apart from the original: a test is missing, or the \
              mutant is equivalent."
            .to_string(),
    }
}

// ---------------------------------------------------------------------------
// Source files

/// Lines that far from a mutant are shown around it; longer stretches
/// without mutants fold.
const CONTEXT: usize = 3;
const MIN_FOLD: usize = 8;

fn file_view(
    out: &mut String,
    d: usize,
    f: usize,
    file: &str,
    mutants: &[(usize, &MutantReport)],
    input: &Input,
    page_dir: &Path,
) {
    let counts = Counts::of(mutants.iter().map(|(_, m)| *m));
    w(
        out,
        format_args!(
            "<section class=\"file\" id=\"d{d}-f{f}\"><h4><code>{}</code> <span class=\"muted small\">{} mutants, \
             {} survived, score {}</span></h4>\n",
            esc(file),
            counts.total(),
            counts.get(Status::Survived),
            counts.score_text()
        ),
    );
    let mut by_line: BTreeMap<usize, Vec<(usize, &MutantReport)>> = BTreeMap::new();
    for &(i, m) in mutants {
        by_line.entry(m.line as usize).or_default().push((i, m));
    }
    for ms in by_line.values_mut() {
        ms.sort_by_key(|(i, m)| (m.column, *i));
    }
    let links = Links::new(input.corpus_dir, page_dir);
    let Some(text) = input.sources.get(file) else {
        out.push_str(
            "<p class=\"muted\">Source not available: mutants by line.</p>\n<div class=\"code\">\n",
        );
        for (line, ms) in &by_line {
            source_row(out, *line, None, ms);
            for &(i, m) in ms {
                mutant_row(out, d, i, m, &links);
            }
        }
        out.push_str("</div></section>\n");
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    // Which lines show: those near a mutant; short gaps show too.
    let mut shown = vec![false; lines.len() + 1];
    for &line in by_line.keys() {
        let lo = line.saturating_sub(CONTEXT).max(1);
        let hi = (line + CONTEXT).min(lines.len());
        for s in shown.iter_mut().take(hi + 1).skip(lo) {
            *s = true;
        }
    }
    out.push_str("<div class=\"code\">\n");
    let mut n = 1;
    while n <= lines.len() {
        if shown[n] {
            source_row(
                out,
                n,
                Some(lines[n - 1]),
                by_line.get(&n).map_or(&[], |v| v),
            );
            for &(i, m) in by_line.get(&n).map_or(&[][..], |v| v) {
                mutant_row(out, d, i, m, &links);
            }
            n += 1;
            continue;
        }
        let start = n;
        while n <= lines.len() && !shown[n] {
            n += 1;
        }
        let end = n - 1;
        if end - start + 1 < MIN_FOLD {
            for k in start..=end {
                source_row(out, k, Some(lines[k - 1]), &[]);
            }
        } else {
            w(
                out,
                format_args!(
                    "<details class=\"fold\"><summary>lines {start}–{end} ({} lines without mutants)</summary>\n",
                    end - start + 1
                ),
            );
            for k in start..=end {
                source_row(out, k, Some(lines[k - 1]), &[]);
            }
            out.push_str("</details>\n");
        }
    }
    // Mutants past the end of the file (it changed since scoring?).
    for (line, ms) in by_line.range(lines.len() + 1..) {
        source_row(out, *line, None, ms);
        for &(i, m) in ms {
            mutant_row(out, d, i, m, &links);
        }
    }
    out.push_str("</div></section>\n");
}

fn source_row(out: &mut String, n: usize, text: Option<&str>, mutants: &[(usize, &MutantReport)]) {
    let top = mutants
        .iter()
        .map(|(_, m)| m.status)
        .max_by_key(|s| urgency(*s));
    let num_class = top.map_or(String::new(), |s| format!(" st-{}", class(s)));
    let body = match text {
        Some(line) => {
            let chars: Vec<char> = line.chars().collect();
            let mut ranks = vec![0u8; chars.len()];
            for (_, m) in mutants {
                if let Some((a, b)) = span(line, m) {
                    for r in &mut ranks[a..b] {
                        *r = (*r).max(urgency(m.status));
                    }
                }
            }
            marked(&chars, &ranks)
        }
        None => "<span class=\"muted\">(source line not available)</span>".to_string(),
    };
    w(
        out,
        format_args!(
            "<div class=\"l\"><span class=\"n{num_class}\">{n}</span><span class=\"t\">{body}</span></div>\n"
        ),
    );
}

fn mutant_row(out: &mut String, d: usize, i: usize, m: &MutantReport, links: &Links) {
    let by = match (&m.killed_by, m.status) {
        (Some(name), _) => {
            let verb = match m.status {
                Status::TimedOut => "timed out by",
                Status::Crashed => "crashed by",
                _ => "killed by",
            };
            match links.input(name) {
                Some((input, meta)) => format!(
                    " · {verb} <a class=\"input\" href=\"{}\">{}</a> <a class=\"meta\" href=\"{}\">json</a>",
                    esc(&input),
                    esc(name),
                    esc(&meta)
                ),
                None => format!(" · {verb} <code>{}</code>", esc(name)),
            }
        }
        (None, Status::Survived) => format!(" · <a href=\"#d{d}-s{i}\">why it matters</a>"),
        _ => String::new(),
    };
    w(
        out,
        format_args!(
            "<div class=\"m {}\" id=\"d{d}-m{i}\"><span class=\"n\"></span><span class=\"t\">{} \
             <span class=\"pos\">{}:{}</span> {} <span class=\"arrow\">→</span> {} <span class=\"op\">{}</span> \
             <span class=\"muted\">in <code>{}</code></span>{by}</span></div>\n",
            class(m.status),
            badge(m.status),
            m.line,
            m.column,
            code_or(&m.original, "(the body)"),
            code_or(&m.replacement, "(removed)"),
            esc(&m.operator),
            esc(&m.function)
        ),
    );
}

/// The characters of `line` (0-based, end exclusive) that the mutant
/// replaces: `original` from its column, whitespace aside (it may run to the
/// end of the line); else the word or the character at its column.
fn span(line: &str, m: &MutantReport) -> Option<(usize, usize)> {
    let chars: Vec<char> = line.chars().collect();
    let start = (m.column as usize).checked_sub(1)?;
    if start >= chars.len() {
        return None;
    }
    let mut i = start;
    let mut matched = !m.original.trim().is_empty();
    for c in m.original.chars().filter(|c| !c.is_whitespace()) {
        while i < chars.len() && chars[i].is_whitespace() && i > start {
            i += 1;
        }
        if i >= chars.len() {
            break; // continues on the next line
        }
        if chars[i] != c {
            matched = false;
            break;
        }
        i += 1;
    }
    if matched && i > start {
        return Some((start, i));
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    if word(chars[start]) {
        let end = (start..chars.len())
            .find(|&k| !word(chars[k]))
            .unwrap_or(chars.len());
        Some((start, end))
    } else {
        Some((start, start + 1))
    }
}

/// Escaped text with runs of marked characters in `<mark>`, coloured by the
/// most urgent status marking them.
fn marked(chars: &[char], ranks: &[u8]) -> String {
    let mut out = String::new();
    let mut k = 0;
    while k < chars.len() {
        let r = ranks[k];
        let mut end = k;
        while end < chars.len() && ranks[end] == r {
            end += 1;
        }
        let text: String = chars[k..end].iter().collect();
        if r == 0 {
            out.push_str(&esc(&text));
        } else {
            let st = STATUSES
                .iter()
                .copied()
                .find(|s| urgency(*s) == r)
                .unwrap_or(Status::Killed);
            w(
                &mut out,
                format_args!("<mark class=\"st-{}\">{}</mark>", class(st), esc(&text)),
            );
        }
        k = end;
    }
    out
}

/// Links from the page's folder to a driver's corpus inputs.
struct Links {
    corpus: Option<String>,
}

impl Links {
    fn new(corpus_dir: Option<&Path>, page_dir: &Path) -> Links {
        Links {
            corpus: corpus_dir.map(|c| relative_href(page_dir, c)),
        }
    }

    /// The input file's link and its metadata's.
    fn input(&self, name: &str) -> Option<(String, String)> {
        let base = self.corpus.as_ref()?;
        let sep = if base.is_empty() || base.ends_with('/') {
            ""
        } else {
            "/"
        };
        let input = format!("{base}{sep}{}", percent(name));
        Some((input.clone(), format!("{input}.json")))
    }
}

/// A URL reference to `target` from the folder `from`: relative when both
/// share a root, else a `file://` URL. Symbolic links are resolved as far as
/// the paths exist.
fn relative_href(from: &Path, target: &Path) -> String {
    let from = resolve(from);
    let target = resolve(target);
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = target.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        let mut url = String::from("file://");
        for c in &b {
            match c {
                Component::Prefix(p) => {
                    url.push('/');
                    url.push_str(&p.as_os_str().to_string_lossy().replace('\\', "/"));
                }
                Component::RootDir => {}
                Component::Normal(s) => {
                    url.push('/');
                    url.push_str(&percent(&s.to_string_lossy()));
                }
                _ => {}
            }
        }
        return url;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| percent(&c.as_os_str().to_string_lossy())),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// An absolute path without `.` or `..`, with symbolic links resolved in the
/// part that exists.
fn resolve(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut norm = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                norm.pop();
            }
            other => norm.push(other),
        }
    }
    let mut existing = norm.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(mut real) = existing.canonicalize() {
            for r in rest.iter().rev() {
                real.push(r);
            }
            return real;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return norm,
        }
    }
}

/// Percent-encodes one URL path segment.
fn percent(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            w(&mut out, format_args!("%{b:02X}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Plots

/// Colour-blind-safe line colours (Okabe and Ito), with dashes to tell
/// campaigns apart in grey print too.
const PALETTE: [(&str, &str); 7] = [
    ("#0072b2", ""),
    ("#d55e00", "7 4"),
    ("#009e73", "2 3"),
    ("#cc79a7", "9 3 2 3"),
    ("#e69f00", ""),
    ("#56b4e9", "7 4"),
    ("#1f2328", "2 3"),
];

fn plots(out: &mut String, d: usize, campaigns: &[Campaign]) {
    out.push_str("<h3>Campaigns</h3>\n");
    if campaigns.iter().all(|c| c.rows.is_empty()) {
        out.push_str(
            "<p class=\"muted\">No plot data: a campaign (<code>MU2=fuzz</code>) records \
             <code>plot_data.csv</code> once a second.</p>\n",
        );
        return;
    }
    out.push_str("<table class=\"campaigns\"><thead><tr><th>campaign</th><th class=\"num\">time</th>\
                  <th class=\"num\">executions</th><th class=\"num\">corpus</th><th class=\"num\">coverage</th>\
                  <th class=\"num\">mutants killed</th><th class=\"num\">mutation score</th></tr></thead><tbody>\n");
    for (k, c) in campaigns.iter().enumerate() {
        let last = c.rows.last().copied().unwrap_or_default();
        let (color, _) = PALETTE[k % PALETTE.len()];
        w(
            out,
            format_args!(
                "<tr><td><span class=\"swatch\" style=\"background:{color}\"></span>{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
                esc(&c.label),
                duration(last.elapsed),
                count(last.execs),
                count(last.corpus),
                count(last.coverage),
                count(last.killed),
                c.score
                    .map_or_else(|| "–".to_string(), |s| format!("{s:.1}%"))
            ),
        );
    }
    out.push_str("</tbody></table>\n<div class=\"plots\">\n");
    plot(
        out,
        &format!("d{d}-killed"),
        "Mutants killed over time",
        "mutants killed",
        campaigns,
        |p| p.killed,
    );
    plot(
        out,
        &format!("d{d}-coverage"),
        "Coverage over time",
        "branches covered",
        campaigns,
        |p| p.coverage,
    );
    out.push_str("</div>\n");
}

/// A whole number with thousands separated: `1,315,749`.
fn count(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let digits = (v.round() as i64).unsigned_abs().to_string();
    let mut out = String::from(if v < -0.5 { "-" } else { "" });
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

const PW: f64 = 500.0;
const PH: f64 = 300.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 48.0;
const LEGEND_ROW: f64 = 20.0;

/// A campaign's index (for its colour), the campaign, and its points.
type Series<'c> = (usize, &'c Campaign, Vec<(f64, f64)>);

fn plot(
    out: &mut String,
    id: &str,
    title: &str,
    y_label: &str,
    campaigns: &[Campaign],
    value: fn(&PlotPoint) -> f64,
) {
    let series: Vec<Series> = campaigns
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let pts = c
                .rows
                .iter()
                .map(|p| (p.elapsed, value(p)))
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            (k, c, pts)
        })
        .collect();
    let x_max = series
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.0))
        .fold(0.0f64, f64::max);
    let y_max = series
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let x_ticks = time_ticks(x_max);
    let y_ticks = nice_ticks(y_max);
    let x_top = *x_ticks.last().unwrap_or(&1.0);
    let y_top = *y_ticks.last().unwrap_or(&1.0);
    let plot_w = PW - LEFT - RIGHT;
    let plot_h = PH - TOP - BOTTOM;
    let sx = |x: f64| LEFT + plot_w * x / x_top;
    let sy = |y: f64| TOP + plot_h * (1.0 - y / y_top);
    let height = PH + 8.0 + LEGEND_ROW * series.len() as f64;

    w(
        out,
        format_args!(
            "<figure class=\"plot\"><svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{id}\" viewBox=\"0 0 {PW} {height}\" \
             width=\"{PW}\" height=\"{height}\" role=\"img\" aria-labelledby=\"{id}-t\">\
             <title id=\"{id}-t\">{}</title>\n\
             <text class=\"title\" x=\"{LEFT}\" y=\"20\">{}</text>\n",
            esc(title),
            esc(title)
        ),
    );
    // Grid and ticks.
    for &t in &y_ticks {
        let y = sy(t);
        w(
            out,
            format_args!(
                "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>\
                 <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
                PW - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                number(t)
            ),
        );
    }
    for &t in &x_ticks {
        let x = sx(t);
        w(
            out,
            format_args!(
                "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>\
                 <line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>\
                 <text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                TOP + plot_h,
                TOP + plot_h,
                TOP + plot_h + 5.0,
                TOP + plot_h + 18.0,
                duration(t)
            ),
        );
    }
    // Axes and their labels.
    w(
        out,
        format_args!(
            "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{b:.1}\"/>\
             <line class=\"axis\" x1=\"{LEFT}\" y1=\"{b:.1}\" x2=\"{r:.1}\" y2=\"{b:.1}\"/>\n\
             <text class=\"label\" x=\"{cx:.1}\" y=\"{xl:.1}\" text-anchor=\"middle\">time since the campaign started</text>\n\
             <text class=\"label\" transform=\"translate(14 {cy:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
            esc(y_label),
            b = TOP + plot_h,
            r = PW - RIGHT,
            cx = LEFT + plot_w / 2.0,
            xl = TOP + plot_h + 38.0,
            cy = TOP + plot_h / 2.0,
        ),
    );
    // One line per campaign, with a dot at its end.
    for (k, c, pts) in &series {
        if pts.is_empty() {
            continue;
        }
        let (color, dash) = PALETTE[k % PALETTE.len()];
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let mut points = String::new();
        for (x, y) in pts {
            w(&mut points, format_args!("{:.1},{:.1} ", sx(*x), sy(*y)));
        }
        let (lx, ly) = pts[pts.len() - 1];
        w(
            out,
            format_args!(
                "<polyline class=\"series\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2.2\" \
                 stroke-linejoin=\"round\"{dash} points=\"{}\"><title>{}</title></polyline>\
                 <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{color}\"><title>{}: {} at {}</title></circle>\n",
                points.trim_end(),
                esc(&c.label),
                sx(lx),
                sy(ly),
                esc(&c.label),
                number(ly),
                duration(lx)
            ),
        );
    }
    // Legend, under the axis label.
    for (row, (k, c, pts)) in series.iter().enumerate() {
        let (color, dash) = PALETTE[k % PALETTE.len()];
        let y = PH + 4.0 + LEGEND_ROW * row as f64;
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        w(
            out,
            format_args!(
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{color}\" stroke-width=\"2.2\"{dash}/>\
                 <text class=\"legend\" x=\"{:.1}\" y=\"{:.1}\">{}{}</text>\n",
                LEFT + 28.0,
                LEFT + 36.0,
                y + 4.0,
                esc(&c.label),
                if pts.is_empty() { " (no data)" } else { "" }
            ),
        );
    }
    out.push_str("</svg></figure>\n");
}

/// Round tick values from 0 to at least `max`, about five of them.
fn nice_ticks(max: f64) -> Vec<f64> {
    let max = if max > 0.0 && max.is_finite() {
        max
    } else {
        1.0
    };
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let step = if max >= 1.0 { step.max(1.0) } else { step };
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// Tick times (seconds) from 0 to at least `max`, on round durations.
fn time_ticks(max: f64) -> Vec<f64> {
    if max < 5.0 {
        return nice_ticks(max);
    }
    const STEPS: [f64; 16] = [
        1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0,
        10800.0, 21600.0,
    ];
    let raw = max / 6.0;
    let step = STEPS
        .iter()
        .copied()
        .find(|s| *s >= raw)
        .unwrap_or_else(|| (raw / 21600.0).ceil() * 21600.0);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// `45s`, `2m`, `2m30s`, `1h`, `1h30m`; fractions of a second below 10 s.
fn duration(secs: f64) -> String {
    if !secs.is_finite() {
        return "–".to_string();
    }
    if secs < 10.0 && (secs - secs.round()).abs() >= 0.05 {
        return format!("{secs:.1}s");
    }
    let s = secs.round() as u64;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    match (h, m, s) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, 0, _) => format!("{h}h"),
        (h, m, _) => format!("{h}h{m:02}m"),
    }
}

/// A tick label: `12`, `2.5`, `15k`, `1.2M`.
fn number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        trim_zeros(format!("{:.1}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim_zeros(format!("{:.1}", v / 1e3)) + "k"
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        trim_zeros(format!("{v:.2}"))
    }
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

// ---------------------------------------------------------------------------
// Text

/// Escapes text for HTML text and quoted attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn w(out: &mut String, args: std::fmt::Arguments) {
    let _ = out.write_fmt(args);
}

const CSS: &str = r#"
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--link:#0969da;
--killed:#1a7f37;--killed-bg:#dafbe1;--survived:#cf222e;--survived-bg:#ffebe9;
--nocov:#6e7781;--nocov-bg:#eaeef2;--timeout:#9a6700;--timeout-bg:#fff8c5;
--unviable:#8250df;--unviable-bg:#fbefff;--crashed:#bc4c00;--crashed-bg:#fff1e5}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1120px;padding:24px 28px 48px;color:var(--fg);background:#fff;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans",Arial,sans-serif}
code,pre,.code .l .t{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:13px}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
h1{font-size:26px;margin:0 0 4px}h2{font-size:21px;margin:36px 0 14px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:17px;margin:30px 0 8px}h4{font-size:15px;margin:0;padding:8px 12px;background:var(--soft);border-bottom:1px solid var(--line)}
.muted{color:var(--muted)}.small{font-size:13px;font-weight:normal}
.count{display:inline-block;min-width:24px;padding:0 8px;border-radius:12px;background:var(--soft);border:1px solid var(--line);font-size:13px;text-align:center}
table{border-collapse:collapse;font-size:14px}th{text-align:left;font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
td,th{padding:4px 10px 4px 0;vertical-align:middle}tbody tr+tr td{border-top:1px solid #eef1f4}
.num{text-align:right;font-variant-numeric:tabular-nums}.bad{color:var(--survived);font-weight:600}
.summary{display:flex;gap:36px;align-items:center;flex-wrap:wrap}
.score{flex:0 0 260px}.score .big{font-size:48px;font-weight:700;line-height:1.1}.score .label{font-weight:600}
.score .stack{width:220px;height:10px;margin-top:10px}
.tables{display:flex;gap:40px;flex-wrap:wrap;margin-top:24px;align-items:flex-start}
.bar,.stack{display:flex;width:140px;height:8px;border-radius:4px;background:#eef1f4;overflow:hidden}
.barcell{min-width:150px}
.bg-killed{background:#2da44e}.bg-survived{background:var(--survived)}.bg-no-coverage{background:#afb8c1}
.bg-timed-out{background:#d4a72c}.bg-unviable{background:#c297ff}.bg-crashed{background:#e16f24}
.badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:11px;font-weight:600;letter-spacing:.02em;line-height:18px;white-space:nowrap;border:1px solid}
.badge.killed{color:var(--killed);background:var(--killed-bg);border-color:#aceebb}
.badge.survived{color:#a40e26;background:var(--survived-bg);border-color:#ffcecb}
.badge.no-coverage{color:#424a53;background:var(--nocov-bg);border-color:#d0d7de}
.badge.timed-out{color:#7d4e00;background:var(--timeout-bg);border-color:#f5e0a0}
.badge.unviable{color:#6639ba;background:var(--unviable-bg);border-color:#ecd8ff}
.badge.crashed{color:#953800;background:var(--crashed-bg);border-color:#ffd8b5}
.survivors{list-style:none;padding:0;margin:0;display:grid;gap:12px}
.card{border:1px solid var(--line);border-left:4px solid var(--survived);border-radius:6px;padding:10px 14px}
.where code{font-weight:600}.op{color:var(--muted);font-size:13px;margin-left:4px}
pre.line{margin:8px 0;padding:6px 10px;background:var(--soft);border-radius:4px;overflow-x:auto;tab-size:4}
pre.line .ln{color:var(--muted);margin-right:14px;user-select:none}
.change code{padding:1px 5px;border-radius:4px;background:var(--soft);border:1px solid var(--line)}
.arrow{color:var(--muted);margin:0 2px}.why{margin:6px 0 0}
.legend .badge{margin-right:4px}
.file{border:1px solid var(--line);border-radius:6px;margin:14px 0;overflow:hidden}
.code{overflow-x:auto;padding:4px 0}
.code .l,.code .m{display:flex;min-width:max-content}
.code .n{flex:none;width:56px;padding-right:12px;text-align:right;color:#8c959f;user-select:none;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12px;line-height:20px}
.code .l .t{white-space:pre;tab-size:4;line-height:20px;padding-right:16px}
.code .n.st-survived{color:#fff;background:var(--survived)}.code .n.st-no-coverage{color:#fff;background:#8c959f}
.code .n.st-killed{color:#fff;background:#2da44e}.code .n.st-timed-out{color:#fff;background:#bf8700}
.code .n.st-crashed{color:#fff;background:#bc4c00}.code .n.st-unviable{color:#fff;background:#8250df}
mark{color:inherit;border-radius:2px;padding:1px 0}
mark.st-survived{background:#ffcecb;box-shadow:inset 0 -2px var(--survived)}mark.st-no-coverage{background:#e6e9ed;box-shadow:inset 0 -2px #8c959f}
mark.st-killed{background:#d2f4da;box-shadow:inset 0 -2px #2da44e}mark.st-timed-out{background:#fff1b3;box-shadow:inset 0 -2px #bf8700}
mark.st-crashed{background:#ffe2cc;box-shadow:inset 0 -2px #bc4c00}mark.st-unviable{background:#f3e6ff;box-shadow:inset 0 -2px #8250df}
.code .m{font-size:13px;line-height:18px;padding:3px 0}.code .m .t{padding:0 16px 0 10px;border-left:3px solid}
.code .m code{font-size:12px;padding:0 4px;border-radius:3px;background:rgba(255,255,255,.7)}
.code .m.killed{background:#f1fbf3}.code .m.killed .t{border-color:#2da44e}
.code .m.survived{background:#fff3f2}.code .m.survived .t{border-color:var(--survived)}
.code .m.no-coverage{background:#f6f8fa}.code .m.no-coverage .t{border-color:#afb8c1}
.code .m.timed-out{background:#fffbe6}.code .m.timed-out .t{border-color:#d4a72c}
.code .m.crashed{background:#fff6ef}.code .m.crashed .t{border-color:#e16f24}
.code .m.unviable{background:#fbf6ff}.code .m.unviable .t{border-color:#c297ff}
.pos{color:var(--muted);font-variant-numeric:tabular-nums;margin:0 4px}
a.meta{font-size:11px;color:var(--muted);margin-left:2px}
details.fold>summary{cursor:pointer;color:var(--muted);font-size:12px;padding:2px 0 2px 68px;background:#fafbfc;list-style:none}
details.fold>summary::before{content:"⋯ "}details.fold[open]>summary{border-bottom:1px dashed var(--line)}
.campaigns{margin-bottom:12px}.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:8px;vertical-align:-1px}
.plots{display:flex;flex-wrap:wrap;gap:20px}.plot{margin:0;border:1px solid var(--line);border-radius:6px;padding:6px}
.plot svg{display:block;max-width:100%;height:auto}
svg text{font-size:12px;fill:var(--muted)}svg text.title{font-size:14px;font-weight:600;fill:var(--fg)}
svg text.label{font-size:12px}svg text.legend{fill:var(--fg)}
svg .grid{stroke:#eef1f4;stroke-width:1}svg .axis{stroke:#8c959f;stroke-width:1}
nav.drivers{margin:16px 0}
footer{margin-top:40px;font-size:13px}
"#;
