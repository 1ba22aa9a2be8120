//! Layer files: written, reused, and refused with a typed error when they do not match.

use std::path::PathBuf;

use ayo_core::Rules;
use ayo_solve::build::layer_path;
use ayo_solve::db::{DbError, Layer};
use ayo_solve::Database;

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ayo-solve-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ayoayo() -> Rules {
    Rules::preset("ayoayo").unwrap()
}

#[test]
fn built_files_are_reused_and_equal() {
    let dir = tmp_dir("reuse");
    let (db, reports) = Database::build(&ayoayo(), 6, Some(&dir), true).unwrap();
    assert!(reports.iter().all(|r| !r.reused));
    let (again, reports) = Database::build(&ayoayo(), 7, Some(&dir), true).unwrap();
    assert!(reports[..7].iter().all(|r| r.reused));
    assert!(!reports[7].reused);
    for n in 0..=6 {
        assert_eq!(db.layers()[n], again.layers()[n]);
    }
    let opened = Database::open(&ayoayo(), 7, &dir).unwrap();
    assert_eq!(opened.layers(), again.layers());
    assert_eq!(Database::open_all(&ayoayo(), &dir).unwrap().max_seeds(), 7);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn damaged(name: &str, edit: impl Fn(&mut Vec<u8>)) -> DbError {
    damaged_of(&ayoayo(), name, edit)
}

/// The error of loading layer 5 of `rules` with its file bytes edited.
fn damaged_of(rules: &Rules, name: &str, edit: impl Fn(&mut Vec<u8>)) -> DbError {
    let dir = tmp_dir(name);
    let db = Database::build(rules, 5, Some(&dir), true).unwrap().0;
    let path = layer_path(&dir, db.key(), 5);
    let mut bytes = std::fs::read(&path).unwrap();
    edit(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let err = Layer::load(&path, db.key(), 5).unwrap_err();
    // The build refuses it too, rather than overwriting or reading it.
    let build_err = Database::build(rules, 5, Some(&dir), true).unwrap_err();
    assert_eq!(build_err.to_string(), err.to_string());
    std::fs::remove_dir_all(&dir).unwrap();
    err
}

#[test]
fn a_flipped_value_is_refused() {
    let e = damaged("value", |b| {
        let last = b.len() - 1;
        b[last] ^= 0x01;
    });
    assert!(matches!(e, DbError::DataChecksum { .. }), "{e}");
    assert!(e.to_string().contains("damaged"));
}

/// A rule set with open boards (bounds `lo < hi`) from four seeds on.
fn with_open_boards() -> Rules {
    "ayoayo[capturing_seed_taken=false]".parse().unwrap()
}

#[test]
fn bounds_are_kept_in_the_files() {
    let dir = tmp_dir("bounds");
    let rules = with_open_boards();
    let (db, _) = Database::build(&rules, 6, Some(&dir), true).unwrap();
    assert!(db.layers()[5].open_count() > 0);
    let opened = Database::open(&rules, 6, &dir).unwrap();
    assert_eq!(opened.layers(), db.layers());
    for (a, b) in opened.layers().iter().zip(db.layers()) {
        assert_eq!(a.open_bounds(), b.open_bounds());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_or_missing_bounds_are_refused() {
    // The last bytes of layer 5 are bounds of its open boards.
    let e = damaged_of(&with_open_boards(), "bound", |b| {
        let last = b.len() - 1;
        b[last] ^= 0x01;
    });
    assert!(matches!(e, DbError::DataChecksum { .. }), "{e}");
    let e = damaged_of(&with_open_boards(), "bound-cut", |b| {
        b.truncate(b.len() - 2)
    });
    assert!(
        matches!(e, DbError::Length { found, expected, .. } if found + 2 == expected),
        "{e}"
    );
}

#[test]
fn a_damaged_header_is_refused() {
    // Byte 20 is inside the rules record.
    let e = damaged("header", |b| b[20] ^= 0x20);
    assert!(matches!(e, DbError::HeaderChecksum { .. }), "{e}");
}

#[test]
fn a_truncated_file_is_refused() {
    let e = damaged("short", |b| b.truncate(b.len() - 3));
    assert!(
        matches!(e, DbError::Length { found, expected, .. } if found + 3 == expected),
        "{e}"
    );
    let e = damaged("header-cut", |b| b.truncate(10));
    assert!(matches!(e, DbError::TruncatedHeader { .. }), "{e}");
}

#[test]
fn bad_magic_and_version_are_refused() {
    let e = damaged("magic", |b| b[0] = b'X');
    assert!(matches!(e, DbError::BadMagic { .. }), "{e}");
    let e = damaged("version", |b| b[8] = 9);
    assert!(
        matches!(
            e,
            DbError::Version {
                found: 9,
                expected: 2,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn other_rules_and_layers_are_refused() {
    let dir = tmp_dir("mismatch");
    let db = Database::build(&ayoayo(), 4, Some(&dir), true).unwrap().0;
    // Opening the file of ayoayo as if it were another rule set's.
    let own_side: Rules = "ayoayo[stuck_seeds=own_side]".parse().unwrap();
    let other_key = ayo_solve::solve_rules(&own_side).unwrap().to_string();
    let e = Layer::load(&layer_path(&dir, db.key(), 4), &other_key, 4).unwrap_err();
    assert!(
        matches!(&e, DbError::RulesMismatch { found, expected, .. } if found == "ayoayo[target=none]" && expected == &other_key),
        "{e}"
    );
    // A layer file put in the place of another layer.
    std::fs::copy(layer_path(&dir, db.key(), 3), layer_path(&dir, db.key(), 4)).unwrap();
    let e = Database::open(&ayoayo(), 4, &dir).unwrap_err();
    assert!(
        matches!(
            e,
            DbError::LayerMismatch {
                found: 3,
                expected: 4,
                ..
            }
        ),
        "{e}"
    );
    // A missing layer.
    std::fs::remove_file(layer_path(&dir, db.key(), 2)).unwrap();
    let e = Database::open(&ayoayo(), 4, &dir).unwrap_err();
    assert!(matches!(e, DbError::Missing { n: 2, .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_with_counters_are_refused() {
    for name in ["ayo", "olopon"] {
        let e = Database::build(&Rules::preset(name).unwrap(), 2, None, true).unwrap_err();
        assert!(matches!(e, DbError::UnsupportedRules { .. }), "{name}: {e}");
    }
}

/// Issue #37: every size is bounded before anything is sized by it, an
/// empty folder name is refused, and only regular files are read.
#[test]
fn hostile_sizes_folders_and_files_are_refused() {
    use ayo_solve::counted::{CountedDatabase, MAX_COUNTED_SEEDS};
    use ayo_solve::MAX_DATABASE_SEEDS;
    let olopon = Rules::preset("olopon").unwrap();
    let nowhere = std::path::Path::new("/nonexistent-ayo-solve-test");
    for n in [MAX_DATABASE_SEEDS + 1, 1 << 32, usize::MAX] {
        let e = Database::open(&ayoayo(), n, nowhere).unwrap_err();
        assert!(matches!(e, DbError::LayerTooLarge { max: 40, .. }), "{e}");
        let e = Database::build(&ayoayo(), n, None, true).unwrap_err();
        assert!(matches!(e, DbError::LayerTooLarge { max: 40, .. }), "{e}");
    }
    for n in [MAX_COUNTED_SEEDS + 1, 1 << 32, usize::MAX] {
        let e = CountedDatabase::open(&olopon, n, nowhere).unwrap_err();
        assert!(matches!(e, DbError::LayerTooLarge { max: 48, .. }), "{e}");
        let e = CountedDatabase::build(&olopon, n, None, true).unwrap_err();
        assert!(matches!(e, DbError::LayerTooLarge { max: 48, .. }), "{e}");
    }
    let empty = std::path::Path::new("");
    for e in [
        Database::open(&ayoayo(), 1, empty).unwrap_err(),
        Database::open_all(&ayoayo(), empty).unwrap_err(),
        Database::build(&ayoayo(), 1, Some(empty), true).unwrap_err(),
        CountedDatabase::open(&olopon, 1, empty).unwrap_err(),
        CountedDatabase::open_all(&olopon, empty).unwrap_err(),
        CountedDatabase::build(&olopon, 1, Some(empty), true).unwrap_err(),
    ] {
        assert!(e.to_string().contains("folder name is empty"), "{e}");
    }
    // A folder where layer 0's file is a folder: refused, not read.
    let dir = tmp_dir("not-a-file");
    let key = ayo_solve::solve_rules(&ayoayo()).unwrap().to_string();
    std::fs::create_dir(layer_path(&dir, &key, 0)).unwrap();
    let e = Database::open(&ayoayo(), 0, &dir).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
