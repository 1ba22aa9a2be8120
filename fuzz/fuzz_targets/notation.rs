//! Any text given to the record parsers either fails with a `RecordError` or
//! parses to a value whose printed form parses back to the same value.
#![no_main]

use ayo_core::record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(rules) = record::parse_rules(text) {
        assert_eq!(record::parse_rules(&record::rules_to_text(&rules)), Ok(rules));
    }
    if let Ok((rules, pos)) = record::parse_position(text) {
        let printed = record::position_to_text(&rules, &pos);
        assert_eq!(record::parse_position(&printed), Ok((rules, pos)));
    }
    if let Ok(game) = record::parse_game(text) {
        let printed = game.record();
        assert_eq!(record::parse_game(&printed).as_ref(), Ok(&game));
    }
});
