//! Mutant workers end with their pool: scoring (and a campaign) returns
//! only after its worker threads have exited. Detaching them while they
//! exit instead raced with glibc's `pthread_detach` and, about once in a
//! few hundred campaigns, crashed the process (see `pool.rs`).
//!
//! The only test in this binary, so no other test's workers are about.

#[mu2::mutate]
fn double(x: u8) -> u8 {
    x.wrapping_mul(2)
}

#[cfg(target_os = "linux")]
fn workers_alive() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .filter(|name| name.starts_with("mu2-worker"))
        .collect()
}

#[test]
#[cfg(target_os = "linux")]
fn no_worker_outlives_scoring() {
    let target = mu2_runtime::engine::Target {
        name: "double".to_string(),
        run: |src: &mut mu2::Source| Ok(double(src.u8())),
        snapshot: Some(|o: &u8| o.to_string()),
        compare: |a, b| a == b,
    };
    let dir = tempfile::tempdir().unwrap();
    for round in 0..20 {
        let mut store = mu2_runtime::corpus::Store::open(dir.path(), &target.name).unwrap();
        let report = mu2_runtime::score::first_kills(&target, &mut store, 2).unwrap();
        assert!(report.summary.total > 0);
        assert_eq!(workers_alive(), Vec::<String>::new(), "round {round}");
    }
}
