//! `verify` passes on freshly built layers and catches a wrong value.

use ayo_core::Rules;
use ayo_solve::db::{decode_flag, decode_value, encode, encode_bounds, Layer};
use ayo_solve::index::rank;
use ayo_solve::Database;

#[test]
fn verify_passes_on_small_layers() {
    for text in [
        "ayoayo",
        "ayoayo[capturing_seed_taken=false]",
        "ayoayo[stuck_seeds=own_side]",
        "olopon[move_limit=none]",
    ] {
        let rules: Rules = text.parse().unwrap();
        let db = Database::build(&rules, 9, None, true).unwrap().0;
        let rep = db.verify(true);
        assert!(rep.ok(), "{text}: {:?}", rep.failures);
        let total: u64 = db.layers().iter().map(|l| l.len() as u64).sum();
        assert_eq!(rep.checked, total);
        assert_eq!(rep.exact + rep.cycle_scored, total);
        let open: usize = db.layers().iter().map(|l| l.open_count()).sum();
        assert_eq!(rep.convention_dependent, open as u64);
    }
}

#[test]
fn verify_catches_a_changed_value() {
    let rules = Rules::preset("ayoayo").unwrap();
    let db = Database::build(&rules, 7, None, true).unwrap().0;
    let mut layers = db.layers().to_vec();
    // South to move with one seed in pit 4 and two facing it: the move captures 3.
    let board = [0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0];
    let r = rank(&board) as usize;
    assert_eq!(db.board_value(&board), Some(3));
    let mut bytes = layers[3].bytes().to_vec();
    assert!(!decode_flag(bytes[r]));
    bytes[r] = encode(decode_value(bytes[r]) - 1, false);
    layers[3] = Layer::from_bytes(3, bytes).unwrap();
    let bad = Database::from_layers(&rules, layers).unwrap();
    let rep = bad.verify(true);
    // The changed board fails, and so may boards that lead to it.
    assert!(rep.failed >= 1);
    assert!(rep
        .failures
        .iter()
        .any(|&(n, rr, stored, ref exp)| n == 3 && rr == r as u64 && stored == 2 && exp == "3"));
}

#[test]
fn verify_catches_changed_bounds() {
    let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse().unwrap();
    let db = Database::build(&rules, 6, None, true).unwrap().0;
    let layer = &db.layers()[5];
    let bytes = layer.bytes().to_vec();
    let r = bytes.iter().position(|&b| decode_flag(b)).unwrap();
    let (lo, hi) = layer.bounds(r as u64);
    let v = layer.value(r as u64);
    for (bounds, value_byte) in [
        // A bound too wide, too narrow (closed), and a value outside its bounds.
        (encode_bounds(lo - 1, hi, layer.cycle(r as u64)), bytes[r]),
        (encode_bounds(lo, hi - 1, layer.cycle(r as u64)), bytes[r]),
    ]
    .into_iter()
    .chain((v < hi).then(|| (layer.open_bounds()[0], encode(hi + 1, true))))
    {
        let mut open = layer.open_bounds().to_vec();
        open[0] = bounds;
        let mut b = bytes.clone();
        b[r] = value_byte;
        let mut layers = db.layers().to_vec();
        layers[5] = Layer::from_parts(5, b, open).unwrap();
        let rep = Database::from_layers(&rules, layers).unwrap().verify(true);
        assert!(
            rep.failures
                .iter()
                .any(|(n, rr, _, _)| *n == 5 && *rr == r as u64),
            "{:?}",
            rep.failures
        );
    }
}
