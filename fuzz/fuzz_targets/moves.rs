//! Random rule sets and move sequences: every invariant of the property tests
//! (seeds conserved, legal list and `is_legal` agree, undo restores, the
//! packed and traced boards agree with the plain seed-by-seed reading of the
//! rules, `LeanGame` plays as `Game`) on fuzzer input.
#![no_main]

// The property tests' plain reading of the rules, the oracle here too.
#[path = "../../ayo-core/tests/reference.rs"]
mod reference;

use ayo_core::trace::sow_seed_by_seed;
use ayo_core::{Game, LeanGame, Move, Position, Rules, PARAM_NAMES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, moves)) = data.split_first() else { return };
    let mut params = ayo_core::Preset::ALL[usize::from(head & 3)].params();
    // A few parameter flips chosen by the first bits of the input.
    let flips: [(&str, &str); 6] = [
        ("relay", if head & 4 != 0 { "true" } else { "false" }),
        ("capture", ["across", "two_three", "collect_four", "across"][usize::from(head >> 3 & 3)]),
        ("skip_origin", if head & 32 != 0 { "true" } else { "false" }),
        ("feeding", ["off", "strict", "if_possible", "no_starving"][usize::from(head >> 6 & 3)]),
        ("seeds_per_pit", "4"),
        ("repetition", if head & 1 != 0 { "own_side" } else { "off" }),
    ];
    for (k, v) in flips {
        debug_assert!(PARAM_NAMES.contains(&k));
        params.set(k, v).expect("valid value");
    }
    let Ok(rules) = Rules::new(params) else { return };
    let mut game = Game::new(rules);
    let mut lean = LeanGame::new(rules, *game.position());
    for &b in moves {
        let pos = *game.position();
        let legal = game.legal_moves();
        assert_eq!(lean.position(), &pos);
        assert_eq!(lean.legal_mask(), game.legal_action_mask());
        assert_eq!(lean.outcome(), game.outcome());
        for pit in 0..12u8 {
            let mv = Move::new(pit).expect("pit in range");
            assert_eq!(legal.contains(&mv), game.is_legal(mv));
            if pos.to_move().owns(mv.pit()) && pos.seeds(mv.pit()) > 0 {
                let fast = pos.try_play_unchecked(&rules, mv);
                let traced = sow_seed_by_seed(&rules, &pos, mv);
                let slow = traced.as_ref().map(|(_, s)| Position::from_setup_unchecked(s));
                assert_eq!(fast, slow);
                assert_eq!(traced, reference::sow_plain(&rules, &pos, mv));
            }
        }
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(b) % legal.len()];
        game.play(mv).expect("legal move");
        assert_eq!(lean.play_action(mv.action()), Ok(mv));
        let p = game.position();
        let total = p.board_seeds() + u32::from(p.stores()[0]) + u32::from(p.stores()[1]);
        assert_eq!(total, u32::from(rules.total_seeds()));
        let mut back = game.clone();
        back.undo();
        assert_eq!(*back.position(), pos);
        assert_eq!(back.position().hash(), pos.hash());
    }
});
