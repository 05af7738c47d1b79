//! Self-contained SVG plots (no plotting dependency): a dot plot, a line
//! plot and a grouped bar chart, each on the same simple frame.

use std::fmt::Write;

const W: f64 = 720.0;
const H: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 70.0;

/// A named series of runs, each a polyline of (x, y) points.
pub type Series = (String, Vec<Vec<(f64, f64)>>);

/// A colour-blind-safe palette (Okabe-Ito), one colour per variant.
pub const PALETTE: &[&str] = &[
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000", "#F0E442",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A "nice" upper bound for an axis and its tick step.
fn nice(max: f64) -> (f64, f64) {
    let max = if max <= 0.0 { 1.0 } else { max };
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    ((max / step).ceil() * step, step)
}

/// The frame: title, y axis with grid lines and ticks, and labels. Returns
/// the SVG so far and the y scale's top.
fn frame(title: &str, x_label: &str, y_label: &str, y_max: f64) -> (String, f64) {
    let (top, step) = nice(y_max);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">
<rect width="{W}" height="{H}" fill="white"/>
<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>
"#,
        W / 2.0,
        esc(title)
    );
    let mut v = 0.0;
    while v <= top + 1e-9 {
        let y = y_of(v, top);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            trim(v)
        );
        v += step;
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="#333"/><line x1="{LEFT}" x2="{}" y1="{}" y2="{}" stroke="#333"/>"##,
        H - BOTTOM,
        W - RIGHT,
        H - BOTTOM,
        H - BOTTOM
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text><text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{}</text>"#,
        LEFT + (W - LEFT - RIGHT) / 2.0,
        H - 12.0,
        esc(x_label),
        TOP + (H - TOP - BOTTOM) / 2.0,
        TOP + (H - TOP - BOTTOM) / 2.0,
        esc(y_label)
    );
    (s, top)
}

fn trim(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v:.2}")
    }
}

fn y_of(v: f64, top: f64) -> f64 {
    H - BOTTOM - v / top * (H - TOP - BOTTOM)
}

fn legend(s: &mut String, names: &[String]) {
    for (i, name) in names.iter().enumerate() {
        let y = TOP + 8.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}">{}</text>"#,
            W - RIGHT + 12.0,
            y - 10.0,
            PALETTE[i % PALETTE.len()],
            W - RIGHT + 30.0,
            y,
            esc(name)
        );
    }
}

/// One column of dots per group (one dot per repetition, jittered
/// sideways), with a bar at the mean.
pub fn dot_plot(title: &str, y_label: &str, groups: &[(String, Vec<f64>)]) -> String {
    let max = groups
        .iter()
        .flat_map(|g| g.1.iter().copied())
        .fold(0.0, f64::max);
    let (mut s, top) = frame(title, "variant", y_label, max);
    let slot = (W - LEFT - RIGHT) / groups.len().max(1) as f64;
    for (i, (name, values)) in groups.iter().enumerate() {
        let cx = LEFT + slot * (i as f64 + 0.5);
        let colour = PALETTE[i % PALETTE.len()];
        for (k, v) in values.iter().enumerate() {
            let jitter = ((k as f64 * 0.618_034).fract() - 0.5) * slot * 0.4;
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{colour}" fill-opacity="0.7"/>"#,
                cx + jitter,
                y_of(*v, top)
            );
        }
        let m = crate::stats::mean(values);
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#000" stroke-width="2"/>"##,
            cx - slot * 0.3,
            cx + slot * 0.3,
            y = y_of(m, top)
        );
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{}" text-anchor="end" transform="rotate(-30 {cx:.1} {})">{}</text>"#,
            H - BOTTOM + 16.0,
            H - BOTTOM + 16.0,
            esc(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Step lines, one per run, coloured by series (all runs of a variant share
/// its colour).
pub fn step_plot(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_max: f64,
    series: &[Series],
) -> String {
    let max = series
        .iter()
        .flat_map(|s| s.1.iter().flatten().map(|p| p.1))
        .fold(0.0, f64::max);
    let (mut s, top) = frame(title, x_label, y_label, max);
    let (x_top, x_step) = nice(x_max);
    let x_of = |x: f64| LEFT + x.min(x_top) / x_top * (W - LEFT - RIGHT);
    let mut t = 0.0;
    while t <= x_top + 1e-9 {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x_of(t),
            H - BOTTOM + 16.0,
            trim(t)
        );
        t += x_step;
    }
    for (i, (_, runs)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        for run in runs {
            let mut d = format!("M{:.1},{:.1}", x_of(0.0), y_of(0.0, top));
            let mut last = 0.0;
            for &(x, y) in run {
                let _ = write!(
                    d,
                    " L{:.1},{:.1} L{:.1},{:.1}",
                    x_of(x),
                    y_of(last, top),
                    x_of(x),
                    y_of(y, top)
                );
                last = y;
            }
            let _ = write!(d, " L{:.1},{:.1}", x_of(x_max), y_of(last, top));
            let _ = writeln!(
                s,
                r#"<path d="{d}" fill="none" stroke="{colour}" stroke-opacity="0.75" stroke-width="1.5"/>"#
            );
        }
    }
    legend(
        &mut s,
        &series.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
    );
    s.push_str("</svg>\n");
    s
}

/// Grouped bars: one group per category, one bar per series.
pub fn bar_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    categories: &[String],
    series: &[(String, Vec<f64>)],
) -> String {
    let max = series
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .fold(0.0, f64::max);
    let (mut s, top) = frame(title, x_label, y_label, max);
    let slot = (W - LEFT - RIGHT) / categories.len().max(1) as f64;
    let bar = slot * 0.8 / series.len().max(1) as f64;
    for (c, cat) in categories.iter().enumerate() {
        let x0 = LEFT + slot * c as f64 + slot * 0.1;
        for (i, (_, values)) in series.iter().enumerate() {
            let v = values.get(c).copied().unwrap_or(0.0);
            let y = y_of(v, top);
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
                x0 + bar * i as f64,
                bar.max(1.0),
                H - BOTTOM - y,
                PALETTE[i % PALETTE.len()]
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x0 + slot * 0.4,
            H - BOTTOM + 16.0,
            esc(cat)
        );
    }
    legend(
        &mut s,
        &series.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_axes() {
        assert_eq!(nice(0.0), (1.0, 0.2));
        assert_eq!(nice(47.0), (50.0, 10.0));
        assert_eq!(nice(9.0), (10.0, 2.0));
    }

    #[test]
    fn plots_are_well_formed_svg() {
        let dots = dot_plot("t <x>", "y", &[("a".into(), vec![1.0, 2.0])]);
        assert!(dots.starts_with("<svg") && dots.trim_end().ends_with("</svg>"));
        assert!(dots.contains("t &lt;x&gt;"));
        let steps = step_plot("t", "s", "k", 5.0, &[("a".into(), vec![vec![(1.0, 1.0)]])]);
        assert!(steps.contains("<path"));
        let bars = bar_chart("t", "x", "y", &["1".into()], &[("a".into(), vec![3.0])]);
        assert!(bars.contains("<rect x="));
    }
}
