//! The check of a batch's actions before its step (`first_refused`): the
//! first game whose action the options refuse, read from the status rows,
//! under every kernel, as `check_action` says game by game.

use ayo_core::episode::{
    check_action, first_refused_on, Autoreset, EpisodeOptions, IllegalAction, DONE,
};
use ayo_core::kernel::Kernel;
use ayo_core::Rules;
use proptest::prelude::*;

/// The first refused game, one game at a time with `check_action`.
fn first_refused_by_check(opts: &EpisodeOptions, status: &[u8], actions: &[i64]) -> Option<usize> {
    let penalize = opts.illegal.penalty().is_some();
    status.iter().zip(actions).position(|(&st, &a)| {
        if st & DONE != 0 {
            opts.autoreset == Autoreset::Disabled
        } else {
            check_action(st, a, penalize).is_err()
        }
    })
}

fn options(penalize: bool, autoreset: Autoreset) -> EpisodeOptions {
    let mut opts = EpisodeOptions::new(Rules::preset("oware").expect("a preset"));
    opts.illegal = if penalize {
        IllegalAction::Penalize(-1.0)
    } else {
        IllegalAction::Raise
    };
    opts.autoreset = autoreset;
    opts
}

/// A game's status and action: mostly legal actions of games that go on
/// (the common batch), some illegal, out of range or of games that are over.
fn game() -> impl Strategy<Value = (u8, i64)> {
    let status = prop_oneof![
        8 => 1u8..64,
        1 => Just(0u8),
        1 => (0u8..64).prop_map(|s| s | DONE),
    ];
    let action = prop_oneof![
        20 => 0i64..6,
        1 => prop_oneof![Just(-1i64), Just(6), Just(7), Just(8), Just(64), Just(i64::MIN), Just(i64::MAX)],
    ];
    (status, action).prop_map(|(st, a)| {
        // Mostly an action the status shows as legal.
        let legal = st & 0x3F;
        if (0..6).contains(&a) && legal != 0 && a % 2 == 0 {
            (st, i64::from(legal.trailing_zeros()))
        } else {
            (st, a)
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_first_refused_game_is_the_first_check_action_refuses(
        games in prop::collection::vec(game(), 0..300),
        penalize in any::<bool>(),
        autoreset in prop_oneof![
            Just(Autoreset::NextStep),
            Just(Autoreset::SameStep),
            Just(Autoreset::Disabled),
        ],
    ) {
        let opts = options(penalize, autoreset);
        let (status, actions): (Vec<u8>, Vec<i64>) = games.into_iter().unzip();
        let expected = first_refused_by_check(&opts, &status, &actions);
        for kernel in Kernel::available() {
            prop_assert_eq!(first_refused_on(kernel, &opts, &status, &actions), expected, "{}", kernel);
        }
    }
}

#[test]
fn each_option_refuses_what_it_says() {
    // Game 0 shows actions 0 and 2 as legal; game 1 is over.
    let status = [0b101u8, DONE];
    let (raise, penalize) = (
        options(false, Autoreset::NextStep),
        options(true, Autoreset::NextStep),
    );
    let disabled = options(false, Autoreset::Disabled);
    for kernel in Kernel::available() {
        let first =
            |opts: &EpisodeOptions, a: i64| first_refused_on(kernel, opts, &status, &[a, 9]);
        for a in [0, 2] {
            assert_eq!(first(&raise, a), None, "{kernel}: legal {a}");
        }
        for a in [1, 3, 4, 5] {
            assert_eq!(first(&raise, a), Some(0), "{kernel}: illegal {a} raised");
            assert_eq!(first(&penalize, a), None, "{kernel}: illegal {a} penalized");
        }
        for a in [-1, 6, 7, 8, 64, i64::MIN, i64::MAX] {
            assert_eq!(first(&penalize, a), Some(0), "{kernel}: {a} out of range");
        }
        assert_eq!(
            first(&disabled, 0),
            Some(1),
            "{kernel}: an over game without autoreset"
        );
    }
}

#[test]
fn a_refusal_is_found_in_any_run_of_games_and_nothing_past_the_shorter_slice_is_read() {
    let opts = options(false, Autoreset::NextStep);
    let status = vec![0x3Fu8; 1000];
    for kernel in Kernel::available() {
        for bad in [0, 63, 64, 65, 127, 500, 999] {
            let mut actions = vec![2i64; 1000];
            actions[bad] = 6;
            assert_eq!(
                first_refused_on(kernel, &opts, &status, &actions),
                Some(bad)
            );
            // A game whose episode is over takes any action (autoreset).
            let mut over = status.clone();
            over[bad] |= DONE;
            assert_eq!(first_refused_on(kernel, &opts, &over, &actions), None);
        }
        let actions = vec![9i64; 1000];
        assert_eq!(
            first_refused_on(kernel, &opts, &status[..0], &actions),
            None
        );
        assert_eq!(
            first_refused_on(kernel, &opts, &status[..10], &actions[..5]),
            Some(0)
        );
    }
}
