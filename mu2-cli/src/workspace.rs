//! The user's workspace as `cargo mu2` sees it: the packages that depend on
//! mu2, their test binaries, and the drivers and mutants each binary lists
//! (`MU2_LIST`, answered before any test runs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use crate::Failure;

/// A driver, and the test binary that holds it.
#[derive(Clone, Debug)]
pub struct Driver {
    pub name: String,
    pub kind: String,
    /// libtest's name for it.
    pub test: String,
    pub manifest_dir: PathBuf,
    pub binary: PathBuf,
    pub package: String,
}

/// One mutant, as the binaries list it.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
pub struct Mutant {
    pub id: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub function: String,
    pub operator: String,
    pub original: String,
    pub replacement: String,
}

#[derive(Deserialize)]
struct Listing {
    drivers: Vec<ListedDriver>,
    mutants: Vec<Mutant>,
}

#[derive(Deserialize)]
struct ListedDriver {
    name: String,
    kind: String,
    test: String,
    manifest_dir: PathBuf,
}

/// What `cargo metadata` says, in the parts used here.
#[derive(Deserialize)]
struct Metadata {
    packages: Vec<Package>,
    workspace_members: Vec<String>,
    workspace_root: PathBuf,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    id: String,
    manifest_path: PathBuf,
    dependencies: Vec<Dependency>,
}

#[derive(Deserialize)]
struct Dependency {
    name: String,
}

/// The workspace: its root, the packages using mu2, their drivers and mutants.
pub struct Workspace {
    pub root: PathBuf,
    pub drivers: Vec<Driver>,
    /// Every mutant of every binary, once each, by id.
    pub mutants: BTreeMap<String, Mutant>,
}

/// How to build: which packages, which profile.
pub struct Build<'a> {
    pub manifest_path: Option<&'a Path>,
    pub packages: &'a [String],
    /// Every package that uses mu2, not only the one in the current folder.
    pub workspace: bool,
    pub release: bool,
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

impl Workspace {
    /// Finds the packages that depend on mu2, builds their tests (cargo's
    /// progress and errors shown as they come), and asks each test binary
    /// for its drivers and mutants.
    pub fn load(build: &Build) -> Result<Workspace, Failure> {
        let mut meta = cargo();
        meta.args(["metadata", "--format-version", "1", "--no-deps"]);
        if let Some(m) = build.manifest_path {
            meta.arg("--manifest-path").arg(m);
        }
        let out = meta
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| Failure::Env(format!("cannot run cargo: {e}")))?;
        if !out.status.success() {
            return Err(Failure::Env(
                "`cargo metadata` failed (see above): is this a Cargo project?".into(),
            ));
        }
        let meta: Metadata = serde_json::from_slice(&out.stdout)
            .map_err(|e| Failure::Env(format!("cannot read `cargo metadata`'s output: {e}")))?;
        let mut users: Vec<&Package> = meta
            .packages
            .iter()
            .filter(|p| meta.workspace_members.contains(&p.id))
            .filter(|p| p.dependencies.iter().any(|d| d.name == "mu2"))
            .filter(|p| build.packages.is_empty() || build.packages.contains(&p.name))
            .collect();
        // Like cargo: in a member's folder, that member (when it uses mu2).
        if build.packages.is_empty() && !build.workspace {
            let here = std::env::current_dir().unwrap_or_default();
            let current = users
                .iter()
                .filter(|p| {
                    p.manifest_path
                        .parent()
                        .is_some_and(|dir| here.starts_with(dir))
                })
                .max_by_key(|p| p.manifest_path.components().count());
            if let Some(&p) = current {
                if p.manifest_path.parent() != Some(meta.workspace_root.as_path()) {
                    users = vec![p];
                }
            }
        }
        if users.is_empty() {
            return Err(Failure::Env(if build.packages.is_empty() {
                "no package in this workspace depends on `mu2`: add it (`cargo add --dev mu2`) and annotate code with #[mu2::mutate]".into()
            } else {
                format!("none of the packages {:?} depends on `mu2`", build.packages)
            }));
        }

        let mut test = cargo();
        test.args([
            "test",
            "--no-run",
            "--message-format=json-render-diagnostics",
        ]);
        if build.release {
            test.arg("--release");
        }
        if let Some(m) = build.manifest_path {
            test.arg("--manifest-path").arg(m);
        }
        for p in &users {
            test.args(["-p", &p.name]);
        }
        eprintln!(
            "cargo mu2: building the tests of {}",
            users
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let out = test
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| Failure::Env(format!("cannot run cargo: {e}")))?;
        if !out.status.success() {
            return Err(Failure::Build);
        }
        let mut binaries = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if msg["reason"] != "compiler-artifact" || msg["profile"]["test"] != true {
                continue;
            }
            let (Some(exe), Some(pkg)) = (msg["executable"].as_str(), msg["package_id"].as_str())
            else {
                continue;
            };
            let package = users
                .iter()
                .find(|p| p.id == pkg)
                .map(|p| p.name.clone())
                .unwrap_or_default();
            binaries.push((PathBuf::from(exe), package));
        }

        let mut drivers = Vec::new();
        let mut mutants = BTreeMap::new();
        for (binary, package) in binaries {
            // `--list` makes a binary without mu2 only list its tests.
            let out = Command::new(&binary)
                .arg("--list")
                .env("MU2_LIST", "1")
                .stderr(Stdio::null())
                .output()
                .map_err(|e| Failure::Env(format!("cannot run {}: {e}", binary.display())))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let Some(json) = text.lines().find(|l| l.starts_with('{')) else {
                continue;
            };
            let listing: Listing = serde_json::from_str(json).map_err(|e| {
                Failure::Env(format!("{} lists itself oddly: {e}", binary.display()))
            })?;
            for d in listing.drivers {
                drivers.push(Driver {
                    name: d.name,
                    kind: d.kind,
                    test: d.test,
                    manifest_dir: d.manifest_dir,
                    binary: binary.clone(),
                    package: package.clone(),
                });
            }
            for m in listing.mutants {
                mutants.entry(m.id.clone()).or_insert(m);
            }
        }
        drivers.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
        Ok(Workspace {
            root: meta.workspace_root,
            drivers,
            mutants,
        })
    }

    /// The driver named `name`; an error that lists the known ones otherwise.
    pub fn driver(&self, name: &str) -> Result<&Driver, Failure> {
        let found: Vec<&Driver> = self
            .drivers
            .iter()
            .filter(|d| d.name == name || d.test == name)
            .collect();
        match found.as_slice() {
            [one] => Ok(one),
            [] => Err(Failure::Usage(format!(
                "no driver named `{name}`. The drivers are: {}",
                if self.drivers.is_empty() {
                    "none (add a #[mu2::diff] or #[mu2::fuzz] test)".to_string()
                } else {
                    self.drivers
                        .iter()
                        .map(|d| format!("{} ({})", d.name, d.package))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ))),
            many => Err(Failure::Usage(format!(
                "`{name}` names drivers in several packages ({}): pick one with --package",
                many.iter()
                    .map(|d| d.package.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}
