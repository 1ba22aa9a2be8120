//! Every CPU kernel this machine has (`ayo_core::kernel`; the scalar one
//! everywhere) builds the same databases: the board-only and the counted
//! builds, run on each kernel, write the scalar kernel's files byte for byte
//! and report the same layers. The scalar kernel's databases are checked
//! against the core's moves (`verify`), so every machine tests the build's
//! dispatched loops against the rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ayo_core::kernel::Kernel;
use ayo_core::Rules;
use ayo_solve::counted::{CountedDatabase, CountedReport};
use ayo_solve::{Database, LayerReport};

/// Board-only rule sets of every rule family the builds handle (relay or
/// single laps; capture across, 2-or-3 chains, collect on 4).
const BOARD_ONLY: [&str; 4] = [
    "ayoayo",
    "ayoayo[capturing_seed_taken=false]",
    "oware",
    "ayo[move_limit=none]",
];
/// Rule sets with a move limit, for the counted build.
const COUNTED: [&str; 2] = ["olopon", "ayo"];
/// The largest layer built.
const MAX_SEEDS: usize = 8;

/// A fresh, empty directory for one build.
fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ayo-kernels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file in `dir`, by name, with its bytes; the directory is removed.
fn take_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let files: BTreeMap<_, _> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    std::fs::remove_dir_all(dir).unwrap();
    files
}

/// A layer report without its timings and passes (the fixpoint's passes
/// depend on how the threads' sweeps interleave); the rest must not depend
/// on the kernel.
fn untimed(mut r: LayerReport) -> LayerReport {
    r.seconds = 0.0;
    r.generate_seconds = 0.0;
    r.passes = 0;
    r
}

/// A counted layer report without its timings.
fn untimed_counted(mut r: CountedReport) -> CountedReport {
    r.seconds = 0.0;
    r.generate_seconds = 0.0;
    r
}

fn kernels() -> Vec<Kernel> {
    let kernels = Kernel::available();
    assert_eq!(kernels[0], Kernel::SCALAR, "the scalar kernel comes first");
    kernels
}

#[test]
fn every_kernel_builds_the_same_board_only_databases() {
    for text in BOARD_ONLY {
        let rules: Rules = text.parse().unwrap();
        let mut scalar = None;
        for k in kernels() {
            let dir = tmp_dir(&format!("board-{k}"));
            let (db, reports) = Database::build_on(k, &rules, MAX_SEEDS, Some(&dir), true).unwrap();
            assert!(reports.iter().all(|r| !r.reused), "{text} on {k}");
            let reports: Vec<_> = reports.into_iter().map(untimed).collect();
            let files = take_files(&dir);
            assert_eq!(files.len(), MAX_SEEDS + 1, "{text} on {k}");
            let Some((want_db, want_reports, want_files)) = &scalar else {
                let verified = db.verify(true);
                assert!(verified.ok(), "{text}: {:?}", verified.failures);
                assert!(verified.checked > 0);
                scalar = Some((db, reports, files));
                continue;
            };
            assert!(files == *want_files, "{text}: kernel {k} wrote other files");
            assert_eq!(&reports, want_reports, "{text} on {k}");
            assert_eq!(db.layers(), want_db.layers(), "{text} on {k}");
        }
        // The active kernel (`AYO_KERNEL`, or the best) is one of them.
        let (active, _) = Database::build(&rules, MAX_SEEDS, None, true).unwrap();
        assert_eq!(active.layers(), scalar.unwrap().0.layers(), "{text}");
    }
}

#[test]
fn every_kernel_builds_the_same_counted_databases() {
    for text in COUNTED {
        let rules: Rules = text.parse().unwrap();
        let mut scalar = None;
        for k in kernels() {
            let dir = tmp_dir(&format!("counted-{k}"));
            let (db, reports) =
                CountedDatabase::build_on(k, &rules, MAX_SEEDS, Some(&dir), true).unwrap();
            assert!(reports.iter().all(|r| !r.reused), "{text} on {k}");
            let reports: Vec<_> = reports.into_iter().map(untimed_counted).collect();
            let files = take_files(&dir);
            assert_eq!(files.len(), reports.len(), "{text} on {k}");
            let Some((want_db, want_reports, want_files)) = &scalar else {
                let (checked, failed) = db.verify();
                assert!(checked > 0 && failed == 0, "{text}: {failed} of {checked}");
                scalar = Some((db, reports, files));
                continue;
            };
            assert!(files == *want_files, "{text}: kernel {k} wrote other files");
            assert_eq!(&reports, want_reports, "{text} on {k}");
            assert_eq!(db.layers(), want_db.layers(), "{text} on {k}");
        }
        let (active, _) = CountedDatabase::build(&rules, MAX_SEEDS, None, true).unwrap();
        assert_eq!(active.layers(), scalar.unwrap().0.layers(), "{text}");
    }
}
