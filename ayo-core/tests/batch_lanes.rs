//! The batch step in lanes (`step_batch_on` with `BatchPath::Lanes`) plays
//! exactly the episodes that stepping each in turn plays, step by step:
//! the same steps reported, positions, moves, legal masks, observations,
//! outcomes and random streams, for every single-lap rule family the lanes
//! take, every option of the episode, and every kernel this machine has
//! (the lanes are built for `avx512` and, with the `testing` feature, for
//! the scalar one, so that their logic is checked on any machine; with
//! `avx2` the lanes path is the path in turn).

use ayo_core::episode::{
    step_batch_on, step_batch_rows, step_batch_rows_on, Autoreset, BatchPath, Checked, Counts,
    Episode, EpisodeOptions, IllegalAction, Opponent, OwnedRows, Perspective, Reward, RowsError,
    SeatChoice, Step,
};
use ayo_core::kernel::Kernel;
use ayo_core::{Capture, LeanGame, Player, Rules};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::strategy::any_rules;

/// Episodes a batch: two full blocks of lanes and a part of one.
const EPISODES: usize = 150;

/// What a step wrote, as the batched environment reads it.
type Written = (usize, Step, usize, Vec<ayo_core::Move>, [u8; 14], u8);

/// One batch step on `path`, logging what `written` saw.
fn step_logged(
    path: BatchPath,
    opts: &EpisodeOptions,
    eps: &mut [Episode<LeanGame>],
    actions: &[Checked],
) -> Vec<Written> {
    let mut log = Vec::new();
    step_batch_on(
        path,
        opts,
        eps,
        |i| actions[i],
        |i, ep, step, before| {
            let o = ep.observe(opts);
            let from = before.min(ep.moves().len());
            log.push((
                i,
                *step,
                before,
                ep.moves()[from..].to_vec(),
                o.view,
                o.legal,
            ));
        },
    );
    log
}

/// A random action for each episode: mostly legal, sometimes illegal (to
/// be penalized) when the options penalize.
fn actions(
    opts: &EpisodeOptions,
    eps: &mut [Episode<LeanGame>],
    rng: &mut impl Rng,
) -> Vec<Checked> {
    eps.iter_mut()
        .map(|ep| {
            let legal = ep.observe(opts).legal;
            let illegal = !legal & 0x3F;
            if opts.illegal.penalty().is_some() && illegal != 0 && rng.random_range(0..20) == 0 {
                let choices: Vec<u8> = (0..6).filter(|a| illegal >> a & 1 == 1).collect();
                let a = choices[rng.random_range(0..choices.len())];
                return Checked::Penalized(i64::from(a));
            }
            let options: Vec<u8> = (0..6).filter(|a| legal >> a & 1 == 1).collect();
            if options.is_empty() {
                Checked::Legal(0)
            } else {
                Checked::Legal(options[rng.random_range(0..options.len())])
            }
        })
        .collect()
}

/// Plays `steps` batch steps on the lanes of each kernel beside the scalar
/// path, failing on the first difference.
fn check(opts: &EpisodeOptions, seed: u64, steps: usize) -> Result<usize, TestCaseError> {
    let fresh = || -> Vec<Episode<LeanGame>> {
        (0..EPISODES as u64)
            .map(|i| {
                let mut ep = Episode::new(opts, seed.wrapping_add(i));
                ep.reset(opts, None);
                ep
            })
            .collect()
    };
    let mut stepped = 0;
    for kernel in Kernel::available() {
        let (mut want, mut got) = (fresh(), fresh());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for s in 0..steps {
            let acts = actions(opts, &mut want, &mut rng);
            let w = step_logged(BatchPath::Scalar, opts, &mut want, &acts);
            let g = step_logged(BatchPath::Lanes(kernel), opts, &mut got, &acts);
            prop_assert_eq!(&g, &w, "kernel {}, step {}", kernel, s);
            for (i, (a, b)) in got.iter_mut().zip(want.iter_mut()).enumerate() {
                let at = format!("kernel {kernel}, step {s}, episode {i}");
                prop_assert_eq!(a.game().position(), b.game().position(), "{}", at);
                prop_assert_eq!(a.moves(), b.moves(), "{}", at);
                prop_assert_eq!(a.snapshot(), b.snapshot(), "{}", at);
                prop_assert_eq!(a.outcome(), b.outcome(), "{}", at);
                prop_assert_eq!(a.observe(opts), b.observe(opts), "{}", at);
            }
            stepped += EPISODES;
        }
    }
    Ok(stepped)
}

/// [`check`] through the batched environment's rows (`step_batch_rows_on`):
/// the lanes write each game's rows from what they know of a step on
/// their common path, the path in turn from the episode; every row, the
/// counts and the episodes must agree.
fn check_rows(opts: &EpisodeOptions, seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let fresh = || -> (Vec<Episode<LeanGame>>, OwnedRows) {
        let mut rows = OwnedRows::new(EPISODES);
        rows.fill_unwritten();
        let eps = (0..EPISODES as u64)
            .map(|i| {
                let mut ep = Episode::new(opts, seed.wrapping_add(i));
                ep.reset(opts, None);
                rows.rows()
                    .write_start(opts, &mut ep, i as usize, 0)
                    .unwrap();
                ep
            })
            .collect();
        (eps, rows)
    };
    let penalize = opts.illegal.penalty().is_some();
    for kernel in Kernel::available() {
        let ((mut want, mut want_rows), (mut got, mut got_rows)) = (fresh(), fresh());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for s in 0..steps {
            // From the status row, as the batched environment checks them.
            let acts: Vec<i64> = want_rows
                .status()
                .iter()
                .map(|&st| {
                    let legal: Vec<i64> = (0..6).filter(|a| st >> a & 1 == 1).collect();
                    let illegal: Vec<i64> = (0..6).filter(|a| st >> a & 1 == 0).collect();
                    // No legal action: the episode is over and ignores it.
                    if legal.is_empty() {
                        0
                    } else if penalize && !illegal.is_empty() && rng.random_range(0..20) == 0 {
                        illegal[rng.random_range(0..illegal.len())]
                    } else {
                        legal[rng.random_range(0..legal.len())]
                    }
                })
                .collect();
            let w: Counts = step_batch_rows_on(
                BatchPath::Scalar,
                opts,
                &mut want,
                &acts,
                &mut want_rows.rows(),
            )
            .unwrap();
            let g: Counts = step_batch_rows_on(
                BatchPath::Lanes(kernel),
                opts,
                &mut got,
                &acts,
                &mut got_rows.rows(),
            )
            .unwrap();
            prop_assert_eq!(g, w, "kernel {}, step {}", kernel, s);
            prop_assert_eq!(&got_rows, &want_rows, "kernel {}, step {}", kernel, s);
            for (i, (a, b)) in got.iter_mut().zip(want.iter_mut()).enumerate() {
                let at = format!("kernel {kernel}, step {s}, episode {i}");
                prop_assert_eq!(a.moves(), b.moves(), "{}", at);
                prop_assert_eq!(a.snapshot(), b.snapshot(), "{}", at);
            }
        }
    }
    Ok(())
}

/// Rules the lanes take: single laps, captures across or by the 2-or-3 chain.
fn lane_rules() -> impl Strategy<Value = Rules> {
    (any_rules(), any::<bool>()).prop_filter_map("a valid single-lap rule set", |(r, two_three)| {
        let mut p = r.params();
        p.relay = false;
        p.capture = if two_three {
            Capture::TwoThree
        } else {
            Capture::Across
        };
        Rules::new(p).ok()
    })
}

fn any_options() -> impl Strategy<Value = EpisodeOptions> {
    (
        lane_rules(),
        prop_oneof![
            Just(SeatChoice::Fixed(Player::South)),
            Just(SeatChoice::Fixed(Player::North)),
            Just(SeatChoice::Alternate),
            Just(SeatChoice::Random)
        ],
        prop_oneof![Just(Perspective::Mover), Just(Perspective::Absolute)],
        prop_oneof![Just(Reward::SeedDifference), Just(Reward::WinLoss)],
        prop_oneof![
            Just(IllegalAction::Raise),
            Just(IllegalAction::Penalize(-1.0))
        ],
        proptest::option::of(1u32..=30),
        prop_oneof![Just(Autoreset::NextStep), Just(Autoreset::SameStep)],
    )
        .prop_map(
            |(rules, seat, perspective, reward, illegal, max_steps, autoreset)| {
                let mut opts = EpisodeOptions::new(rules);
                opts.seat = seat;
                opts.perspective = perspective;
                opts.reward = reward;
                opts.illegal = illegal;
                opts.max_steps = max_steps;
                opts.autoreset = autoreset;
                opts
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn lanes_step_the_episodes_as_the_scalar_step_does(opts in any_options(), seed in any::<u64>()) {
        check(&opts, seed, 40)?;
    }

    #[test]
    fn lanes_write_the_rows_the_scalar_step_writes(opts in any_options(), seed in any::<u64>()) {
        check_rows(&opts, seed, 40)?;
    }
}

#[test]
fn the_single_lap_presets_step_alike_on_both_paths_for_long_runs() {
    for preset in ["oware", "olopon"] {
        let opts = EpisodeOptions::new(Rules::preset(preset).unwrap());
        let stepped = check(&opts, 11, 150).unwrap();
        assert!(stepped >= 150 * EPISODES, "{preset}");
        check_rows(&opts, 12, 150).unwrap();
    }
}

#[test]
fn options_the_lanes_do_not_take_are_stepped_in_turn() {
    // A relay game, and a searching opponent: the lanes path is the scalar one.
    let mut opts = EpisodeOptions::new(Rules::preset("ayoayo").unwrap());
    check(&opts, 3, 20).unwrap();
    opts.opponent = Opponent::SelfPlay;
    check(&opts, 4, 20).unwrap();
}

#[test]
fn the_batch_step_takes_the_lanes_with_64_byte_vectors() {
    for kernel in Kernel::available() {
        let want = if kernel.vector_bytes() == 64 {
            BatchPath::Lanes(kernel)
        } else {
            BatchPath::Scalar
        };
        assert_eq!(BatchPath::for_kernel(kernel), want, "{kernel}");
        // Built for `avx512` alone, and the baseline for the tests.
        let built = kernel.vector_bytes() == 64 || kernel == Kernel::SCALAR;
        assert_eq!(kernel.wide().is_some(), built, "{kernel}");
    }
    assert_eq!(BatchPath::for_kernel(Kernel::SCALAR), BatchPath::Scalar);
    assert_eq!(Kernel::SCALAR.vector_bytes(), 16);
}

#[test]
fn an_episode_left_with_the_opponent_to_move_steps_as_in_turn() {
    // `act` without `conclude` leaves the opponent to move; the step in
    // turn then plays the action for the player to move, with no reply.
    let opts = EpisodeOptions::new(Rules::preset("oware").unwrap());
    let fresh = || -> Vec<Episode<LeanGame>> {
        (0..70u64)
            .map(|i| {
                let mut ep = Episode::new(&opts, i);
                ep.reset(&opts, None);
                if i % 3 == 0 {
                    let a = ep.observe(&opts).legal.trailing_zeros() as u8;
                    let _ = ep.act(&opts, a);
                }
                ep
            })
            .collect()
    };
    for kernel in Kernel::available() {
        let (mut want, mut got) = (fresh(), fresh());
        for s in 0..5 {
            let acts: Vec<Checked> = want
                .iter()
                .map(|ep| {
                    let pos = ep.game().position();
                    let first = (0..6).find(|&a| pos.move_for_action(a).is_ok());
                    Checked::Legal(first.unwrap_or(0))
                })
                .collect();
            let w = step_logged(BatchPath::Scalar, &opts, &mut want, &acts);
            let g = step_logged(BatchPath::Lanes(kernel), &opts, &mut got, &acts);
            assert_eq!(g, w, "kernel {kernel}, step {s}");
            for (a, b) in got.iter().zip(&want) {
                assert_eq!(a.game().position(), b.game().position());
                assert_eq!(a.moves(), b.moves());
            }
        }
    }
}

#[test]
fn the_rows_step_refuses_rows_or_actions_that_do_not_fit() {
    let opts = EpisodeOptions::new(Rules::preset("oware").unwrap());
    let mut eps: Vec<Episode<LeanGame>> = (0..70u64)
        .map(|i| {
            let mut ep = Episode::new(&opts, i);
            ep.reset(&opts, None);
            ep
        })
        .collect();
    let mut rows = OwnedRows::new(70);
    for (i, ep) in eps.iter_mut().enumerate() {
        rows.rows().write_start(&opts, ep, i, 0).unwrap();
    }
    let before = rows.clone();
    let moves: Vec<usize> = eps.iter().map(|ep| ep.moves().len()).collect();
    let err = step_batch_rows(&opts, &mut eps, &[0; 69], &mut rows.rows()).unwrap_err();
    assert_eq!(
        err,
        RowsError::Actions {
            games: 70,
            actions: 69
        }
    );
    // Rows for 69 games only: refused, nothing stepped or written.
    let mut short = OwnedRows::new(69);
    let err = step_batch_rows(&opts, &mut eps, &[0; 70], &mut short.rows()).unwrap_err();
    assert!(matches!(err, RowsError::Length { games: 70, .. }), "{err}");
    assert!(err.to_string().contains("70 games"), "{err}");
    let after: Vec<usize> = eps.iter().map(|ep| ep.moves().len()).collect();
    assert_eq!(after, moves);
    assert_eq!(rows, before);
    let err = rows
        .rows()
        .write_start(&opts, &mut eps[0], 70, 0)
        .unwrap_err();
    assert_eq!(
        err,
        RowsError::Game {
            game: 70,
            games: 70
        }
    );
    // The same batch, fitting: stepped.
    let acts: Vec<i64> = rows
        .status()
        .iter()
        .map(|&st| i64::from(st.trailing_zeros().min(5)))
        .collect();
    step_batch_rows(&opts, &mut eps, &acts, &mut rows.rows()).unwrap();
    assert!(eps.iter().all(|ep| ep.moves().len() == 2));
}
