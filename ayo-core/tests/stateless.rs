//! The stateless batch (`ayo_core::episode::Stateless`) against `Game` on
//! the recorded games of `tests/vectors/moves-*.json` and on random games of
//! every preset that fits the record, against `Episode` (the batched
//! environment's game) with the random opponent on the same seeds, and its
//! refusals.

use std::path::PathBuf;

use ayo_core::episode::{
    Autoreset, Checked, Episode, EpisodeOptions, IllegalAction, Opponent, Perspective, Reward,
    SeatChoice, Stateless, StatelessError, StepOut, STATE_BYTES,
};
use ayo_core::{Game, LeanGame, Player, Preset, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;

fn self_play(rules: Rules) -> Stateless {
    let mut opts = EpisodeOptions::new(rules);
    opts.opponent = Opponent::SelfPlay;
    opts.autoreset = Autoreset::Disabled;
    Stateless::new(opts).unwrap()
}

/// The preset's rules, `oware` without its repetition rule.
fn fitting(preset: Preset) -> Rules {
    let mut p = preset.rules().params();
    p.set("repetition", "off").unwrap();
    Rules::new(p).unwrap()
}

struct Stepped {
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
}

fn step1(env: &Stateless, state: &mut [u8], action: i64) -> Result<Stepped, StatelessError> {
    let (mut r, mut t, mut u) = ([0f32; 2], [false], [false]);
    env.step_in_place(
        state,
        &[action],
        StepOut {
            rewards: &mut r,
            terminated: &mut t,
            truncated: &mut u,
            next_mask: None,
        },
    )?;
    Ok(Stepped {
        rewards: r,
        terminated: t[0],
        truncated: u[0],
    })
}

/// A stateless batch of `n` records and, beside it, the `n` episodes of the
/// batched environment with the same seeds (`seed(i)` for game `i`), all
/// reset.
fn records_and_episodes(
    opts: EpisodeOptions,
    n: usize,
    seed: impl Fn(u64) -> u64,
) -> (Stateless, Vec<Episode<LeanGame>>, Vec<u8>) {
    let env = Stateless::new(opts).unwrap();
    let seeds: Vec<u64> = (0..n as u64).map(seed).collect();
    let mut eps: Vec<Episode<LeanGame>> = seeds.iter().map(|&s| Episode::new(&opts, s)).collect();
    for ep in &mut eps {
        ep.reset(&opts, None);
    }
    let mut states = vec![0u8; n * STATE_BYTES];
    env.init(&seeds, &mut states).unwrap();
    (env, eps, states)
}

fn mask_bits(env: &Stateless, state: &[u8]) -> u8 {
    let mut m = [false; 6];
    env.legal_mask(state, &mut m).unwrap();
    (0..6).filter(|&a| m[a]).map(|a| 1u8 << a).sum()
}

/// Every stateless function agrees with `game` at its current position.
fn check_against_game(env: &Stateless, game: &Game, what: &str) {
    let mut state = [0u8; STATE_BYTES];
    env.state_at(game.position(), 7, &mut state).unwrap();
    assert_eq!(
        env.position(&state, 0).unwrap().0,
        *game.position(),
        "{what}"
    );
    assert_eq!(mask_bits(env, &state), game.legal_action_mask(), "{what}");
    let mut obs = [0u8; 14];
    env.observe(&state, Perspective::Absolute, &mut obs)
        .unwrap();
    assert_eq!(obs, game.position().view(Player::South), "{what}");
    env.observe(&state, Perspective::Mover, &mut obs).unwrap();
    assert_eq!(
        obs,
        game.position().view(game.position().to_move()),
        "{what}"
    );
    let mut children = vec![0u8; 6 * STATE_BYTES];
    let mut valid = [false; 6];
    env.children(&state, &mut children, &mut valid).unwrap();
    for a in 0..6u8 {
        let mut g = game.clone();
        let legal = g.play_action(a).is_ok();
        assert_eq!(valid[usize::from(a)], legal, "{what} action {a}");
        let child = &children[usize::from(a) * STATE_BYTES..][..STATE_BYTES];
        if !legal {
            assert_eq!(child, state, "{what} action {a}");
            continue;
        }
        assert_eq!(
            env.position(child, 0).unwrap().0,
            *g.position(),
            "{what} {a}"
        );
        let mut stepped = state;
        let s = step1(env, &mut stepped, i64::from(a)).unwrap();
        assert_eq!(stepped.as_slice(), child, "{what} action {a}");
        assert_eq!(s.terminated, g.outcome().is_some(), "{what} action {a}");
        let mover = game.position().to_move();
        let want = g.outcome().map_or(0, |o| o.result_for(mover)) as f32;
        let other = mover.opponent().index();
        assert_eq!(s.rewards[mover.index()], want, "{what} action {a}");
        assert_eq!(s.rewards[other], -want, "{what} action {a}");
    }
}

#[test]
fn every_function_agrees_with_game_on_the_recorded_games() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let mut checked = 0;
    let mut refused = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("moves-") && name.ends_with(".json")) {
            continue;
        }
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for v in file["vectors"].as_array().unwrap() {
            let game = Game::from_record(v["game"].as_str().unwrap()).unwrap();
            let opts = EpisodeOptions {
                opponent: Opponent::SelfPlay,
                autoreset: Autoreset::Disabled,
                ..EpisodeOptions::new(*game.rules())
            };
            match Stateless::new(opts) {
                Ok(env) => {
                    if game.outcome().is_none() {
                        check_against_game(&env, &game, v["name"].as_str().unwrap());
                        checked += 1;
                    }
                }
                Err(StatelessError::Repetition) => refused += 1,
                // Variants that end before the second move are not episodes.
                Err(StatelessError::Options(_)) => {}
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
    assert!(
        checked > 100 && refused > 0,
        "{checked} checked, {refused} refused"
    );
}

#[test]
fn random_self_play_games_agree_with_game_move_by_move() {
    for preset in Preset::ALL {
        let rules = fitting(preset);
        let env = self_play(rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(preset as u64);
        for seed in 0..6 {
            let mut state = [0u8; STATE_BYTES];
            env.init(&[seed], &mut state).unwrap();
            let mut game = Game::new(rules);
            while game.outcome().is_none() {
                let legal = game.legal_action_mask();
                assert_eq!(mask_bits(&env, &state), legal);
                let k = rng.random_range(0..legal.count_ones());
                let a = (0..6u8)
                    .filter(|a| legal & (1 << a) != 0)
                    .nth(k as usize)
                    .unwrap();
                let mover = game.position().to_move();
                game.play_action(a).unwrap();
                let s = step1(&env, &mut state, i64::from(a)).unwrap();
                assert_eq!(env.position(&state, 0).unwrap().0, *game.position());
                assert_eq!(s.terminated, game.outcome().is_some());
                assert!(!s.truncated);
                let want = game.outcome().map_or(0, |o| o.result_for(mover)) as f32;
                assert_eq!(s.rewards[mover.index()], want);
            }
            // An ended state is absorbing with autoreset disabled.
            let before = state;
            let s = step1(&env, &mut state, 0).unwrap();
            assert_eq!(state, before);
            assert!(s.terminated && s.rewards == [0.0, 0.0]);
            assert_eq!(mask_bits(&env, &state), 0);
        }
    }
}

/// The stateless records step as the batched environment's episodes do,
/// replies, rewards, truncation, penalties and autoreset included.
#[test]
fn records_step_as_the_batched_environments_episodes() {
    for preset in [Preset::Ayoayo, Preset::Ayo, Preset::Olopon] {
        for (seat, reward, illegal) in [
            (
                SeatChoice::Fixed(Player::South),
                Reward::WinLoss,
                IllegalAction::Raise,
            ),
            (
                SeatChoice::Alternate,
                Reward::SeedDifference,
                IllegalAction::Penalize(-2.0),
            ),
            (
                SeatChoice::Random,
                Reward::WinLoss,
                IllegalAction::Penalize(-1.0),
            ),
        ] {
            let opts = EpisodeOptions {
                seat,
                reward,
                illegal,
                max_steps: Some(40),
                ..EpisodeOptions::new(preset.rules())
            };
            let n = 8;
            let (env, mut eps, mut states) = records_and_episodes(opts, n, |s| s * 77 + 5);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
            let (mut r, mut t, mut u) = (vec![0f32; 2 * n], vec![false; n], vec![false; n]);
            for _ in 0..300 {
                let mut actions = Vec::new();
                let mut mask = vec![false; 6 * n];
                env.legal_mask(&states, &mut mask).unwrap();
                for (i, ep) in eps.iter_mut().enumerate() {
                    // A truncated episode still shows its position's actions.
                    let legal = ep.observe(&opts).legal;
                    let bits: u8 = (0..6).filter(|&a| mask[6 * i + a]).map(|a| 1 << a).sum();
                    assert_eq!(bits, legal);
                    // Now and then an illegal action, where they are penalized.
                    let a = if illegal != IllegalAction::Raise && rng.random_range(0..20) == 0 {
                        (0..6).find(|a| legal & (1 << a) == 0).unwrap_or(0)
                    } else if legal == 0 {
                        0
                    } else {
                        let k = rng.random_range(0..legal.count_ones());
                        (0..6u8)
                            .filter(|a| legal & (1 << a) != 0)
                            .nth(k as usize)
                            .unwrap()
                    };
                    actions.push(i64::from(a));
                }
                let mut next = vec![false; 6 * n];
                let out = StepOut {
                    rewards: &mut r,
                    terminated: &mut t,
                    truncated: &mut u,
                    next_mask: Some(&mut next),
                };
                env.step_in_place(&mut states, &actions, out).unwrap();
                let mut again = vec![false; 6 * n];
                env.legal_mask(&states, &mut again).unwrap();
                assert_eq!(next, again);
                for (i, ep) in eps.iter_mut().enumerate() {
                    let a = actions[i];
                    let checked = if ep.is_done() {
                        Checked::Legal(0)
                    } else {
                        ep.check(&opts, a).unwrap()
                    };
                    let s = ep.step(&opts, checked);
                    let row = &states[i * STATE_BYTES..][..STATE_BYTES];
                    let (pos, seat) = env.position(row, i).unwrap();
                    assert_eq!(pos, *ep.game().position());
                    assert_eq!(seat, ep.seat());
                    assert_eq!(r[2 * i + ep.seat().index()], s.reward_for(ep.seat()) as f32);
                    assert_eq!((t[i], u[i]), (s.terminated, s.truncated));
                }
            }
        }
    }
}

#[test]
fn what_does_not_fit_or_is_malformed_is_refused() {
    let oware = EpisodeOptions::new(Rules::preset("oware").unwrap());
    let e = Stateless::new(oware).unwrap_err();
    assert_eq!(e, StatelessError::Repetition);
    assert!(e.to_string().contains("repetition"), "{e}");
    let searching = EpisodeOptions {
        opponent: Opponent::Agent(
            ayo_core::players::Kind::Greedy,
            ayo_core::players::Budget::Depth(1),
        ),
        ..EpisodeOptions::new(Rules::preset("ayo").unwrap())
    };
    assert_eq!(
        Stateless::new(searching).unwrap_err(),
        StatelessError::Opponent
    );
    let same_step = EpisodeOptions {
        autoreset: Autoreset::SameStep,
        ..EpisodeOptions::new(Rules::preset("ayo").unwrap())
    };
    assert_eq!(
        Stateless::new(same_step).unwrap_err(),
        StatelessError::Autoreset
    );

    let env = Stateless::new(EpisodeOptions::new(Rules::preset("ayoayo").unwrap())).unwrap();
    let mut states = vec![0u8; 2 * STATE_BYTES];
    env.init(&[1, 2], &mut states).unwrap();
    let (mut r, mut t, mut u) = ([0f32; 4], [false; 2], [false; 2]);
    macro_rules! out {
        () => {
            StepOut {
                rewards: &mut r,
                terminated: &mut t,
                truncated: &mut u,
                next_mask: None,
            }
        };
    }
    let mut s = states.clone();
    let e = env.step_in_place(&mut s, &[0], out!()).unwrap_err();
    assert_eq!(e.kind(), "shape");
    let e = env.step_in_place(&mut s, &[0, 6], out!()).unwrap_err();
    assert!(matches!(e, StatelessError::Action { index: 1, .. }), "{e}");
    let e = env.step_in_place(&mut s, &[-1, 0], out!()).unwrap_err();
    assert!(matches!(e, StatelessError::Action { index: 0, .. }), "{e}");
    // A seed too many, a bad player byte, reserved bits: refused, named.
    for (byte, value) in [(0, 5u8), (14, 2), (15, 0x80), (18, 1)] {
        let mut bad = states.clone();
        bad[STATE_BYTES + byte] = value;
        let e = env.step_in_place(&mut bad, &[0, 0], out!()).unwrap_err();
        assert!(
            matches!(e, StatelessError::BadState { index: 1, .. }),
            "{e}"
        );
        let mut m = [false; 12];
        assert_eq!(env.legal_mask(&bad, &mut m).unwrap_err().kind(), "state");
    }
    let mut m = [false; 6];
    assert_eq!(
        env.legal_mask(&states[1..], &mut m).unwrap_err().kind(),
        "shape"
    );
}

#[test]
fn a_spec_reads_back_as_the_same_options() {
    let opts = EpisodeOptions {
        opponent: Opponent::SelfPlay,
        seat: SeatChoice::Alternate,
        perspective: Perspective::Absolute,
        reward: Reward::SeedDifference,
        illegal: IllegalAction::Penalize(-0.5),
        max_steps: Some(200),
        autoreset: Autoreset::Disabled,
        ..EpisodeOptions::new(fitting(Preset::Oware))
    };
    let env = Stateless::new(opts).unwrap();
    let back = Stateless::from_spec(&env.spec()).unwrap();
    assert_eq!(*back.options(), opts);
    assert_eq!(back.spec(), env.spec());
    for bad in [
        "opponent=greedy",
        "seat=2",
        "relay",
        "capture=sideways",
        "max_steps=0",
    ] {
        assert!(Stateless::from_spec(bad).is_err(), "{bad}");
    }
    let e = Stateless::from_spec("repetition=own_side").unwrap_err();
    assert_eq!(e, StatelessError::Repetition);
}

/// The records' actions: a legal one of each (`legal`, six bools a
/// record), now and then an illegal one where `illegal` in 20 draws.
fn pick(rng: &mut Xoshiro256PlusPlus, legal: &[bool], illegal: u32) -> Vec<i64> {
    legal
        .chunks_exact(6)
        .map(|m| {
            let bits: Vec<i64> = (0..6).filter(|&a| m[a as usize]).collect();
            if bits.is_empty() || rng.random_range(0..20) < illegal {
                (0..6).find(|&a| !m[a as usize]).unwrap_or(0)
            } else {
                bits[rng.random_range(0..bits.len())]
            }
        })
        .collect()
}

/// A batch of several blocks of records (the step unpacks them 64 at a
/// time, the last block short): every record steps as its episode does,
/// draw for draw, with rewards, truncation, penalties, autoreset and the
/// next mask; and a record refused in a later block leaves it and the
/// records after it unchanged, the records before it stepped as they would
/// be alone.
#[test]
fn batches_of_several_blocks_step_as_their_episodes() {
    for (preset, opponent) in [
        (Preset::Olopon, Opponent::RANDOM),
        (Preset::Ayo, Opponent::RANDOM),
        (Preset::Olopon, Opponent::SelfPlay),
    ] {
        let opts = EpisodeOptions {
            opponent,
            seat: SeatChoice::Alternate,
            reward: Reward::SeedDifference,
            illegal: IllegalAction::Penalize(-1.0),
            max_steps: Some(30),
            ..EpisodeOptions::new(preset.rules())
        };
        let n = 150;
        let (env, mut eps, mut states) = records_and_episodes(opts, n, |s| s * 31 + 2);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let (mut r, mut t, mut u) = (vec![0f32; 2 * n], vec![false; n], vec![false; n]);
        let mut mask = vec![false; 6 * n];
        env.legal_mask(&states, &mut mask).unwrap();
        for step in 0..120 {
            let actions = pick(&mut rng, &mask, 1);
            let out = StepOut {
                rewards: &mut r,
                terminated: &mut t,
                truncated: &mut u,
                next_mask: Some(&mut mask),
            };
            env.step_in_place(&mut states, &actions, out).unwrap();
            for (i, ep) in eps.iter_mut().enumerate() {
                let what = format!("{preset:?} {opponent:?} step {step} game {i}");
                let checked = if ep.is_done() {
                    Checked::Legal(0)
                } else {
                    ep.check(&opts, actions[i]).unwrap()
                };
                let s = ep.step(&opts, checked);
                let (pos, seat) = env
                    .position(&states[i * STATE_BYTES..][..STATE_BYTES], i)
                    .unwrap();
                assert_eq!(pos, *ep.game().position(), "{what}");
                assert_eq!(seat, ep.seat(), "{what}");
                for p in [Player::South, Player::North] {
                    assert_eq!(r[2 * i + p.index()], s.reward_for(p) as f32, "{what}");
                }
                assert_eq!((t[i], u[i]), (s.terminated, s.truncated), "{what}");
                let bits: u8 = (0..6).filter(|&a| mask[6 * i + a]).map(|a| 1 << a).sum();
                assert_eq!(bits, ep.observe(&opts).legal, "{what}");
            }
        }
    }

    let opts = EpisodeOptions {
        illegal: IllegalAction::Raise,
        ..EpisodeOptions::new(Preset::Olopon.rules())
    };
    let env = Stateless::new(opts).unwrap();
    let n = 150;
    let seeds: Vec<u64> = (0..n as u64).collect();
    let mut states = vec![0u8; n * STATE_BYTES];
    env.init(&seeds, &mut states).unwrap();
    let mut mask = vec![false; 6 * n];
    env.legal_mask(&states, &mut mask).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let actions = pick(&mut rng, &mask, 0);
    let (mut r, mut t, mut u) = (vec![0f32; 2 * n], vec![false; n], vec![false; n]);
    macro_rules! out {
        ($k:expr) => {
            StepOut {
                rewards: &mut r[..2 * $k],
                terminated: &mut t[..$k],
                truncated: &mut u[..$k],
                next_mask: None,
            }
        };
    }
    // An action out of range at 100, a record that is no state at 70.
    let mut wrong = actions.clone();
    wrong[100] = 6;
    let mut bad = states.clone();
    bad[70 * STATE_BYTES + 14] = 2;
    for (at, mut s, acts) in [(100, states.clone(), &wrong), (70, bad, &actions)] {
        let before = s.clone();
        let e = env.step_in_place(&mut s, acts, out!(n)).unwrap_err();
        match e {
            StatelessError::Action { index, .. } | StatelessError::BadState { index, .. } => {
                assert_eq!(index, at, "{e}")
            }
            _ => panic!("{e}"),
        }
        assert_eq!(s[at * STATE_BYTES..], before[at * STATE_BYTES..], "{at}");
        let mut alone = before[..at * STATE_BYTES].to_vec();
        env.step_in_place(&mut alone, &acts[..at], out!(at))
            .unwrap();
        assert_eq!(alone, s[..at * STATE_BYTES], "{at}");
    }
}
