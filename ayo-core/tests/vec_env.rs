//! The batched environment (`ayo_core::episode::VecEnv`): each game plays
//! the single episode of its seed, any number of threads writes the same
//! rows, a refused batch changes nothing, and a state restores.

use ayo_core::episode::{
    ActionError, Checked, Episode, EpisodeOptions, IllegalAction, Mirrored, Opponent, OwnedRows,
    VecEnv, VecEnvError, DONE, OBS,
};
use ayo_core::players::{Budget, Kind};
use ayo_core::{LeanGame, Player, Rules};

fn oware() -> EpisodeOptions {
    EpisodeOptions::new(Rules::preset("oware").expect("a preset"))
}

/// Game `i`'s action at step `t`: one of its legal actions, picked by `i`
/// and `t` so that the games differ (0 where none is legal: a game that is
/// over ignores it).
fn action(status: u8, i: usize, t: usize) -> i64 {
    let legal = status & 63;
    let count = legal.count_ones() as usize;
    if count == 0 {
        return 0;
    }
    let k = (i * 7 + t * 3) % count;
    (0..6).filter(|a| legal & (1 << a) != 0).nth(k).unwrap_or(0)
}

fn actions(status: &[u8], t: usize) -> Vec<i64> {
    status
        .iter()
        .enumerate()
        .map(|(i, &s)| action(s, i, t))
        .collect()
}

#[test]
fn each_game_plays_the_single_episode_of_its_seed() {
    let opts = oware();
    let seeds = [3u64, 11, 12, 900];
    let mut env = VecEnv::new(opts, &seeds, 1).unwrap();
    let mut rows = OwnedRows::new(seeds.len());
    env.reset(rows.rows(), None, None, None).unwrap();
    let mut eps: Vec<Episode<LeanGame>> = seeds.iter().map(|&s| Episode::new(&opts, s)).collect();
    for ep in &mut eps {
        ep.reset(&opts, None);
    }
    let mut ended = 0;
    for t in 0..400 {
        let acts = actions(rows.status(), t);
        let counts = env.step(&acts, rows.rows()).unwrap();
        ended += counts.ended;
        let r = rows.rows();
        for (i, ep) in eps.iter_mut().enumerate() {
            let step = ep.step(&opts, Checked::Legal(acts[i] as u8));
            assert_eq!(r.reward[i], step.reward, "game {i} step {t}");
            assert_eq!(r.terminated[i], step.terminated);
            assert_eq!(r.truncated[i], step.truncated);
            let view = ep.observe(&opts).view.map(f32::from);
            assert_eq!(
                &r.obs[i * OBS..(i + 1) * OBS],
                &view[..],
                "game {i} step {t}"
            );
            assert_eq!(r.status[i] & DONE != 0, ep.is_done());
            assert_eq!(env.is_done(i), Some(ep.is_done()));
        }
    }
    assert!(ended > 4, "the games ended and were reset: {ended}");
    let records = env.records().unwrap();
    for (record, ep) in records.iter().zip(&eps) {
        assert_eq!(*record, ep.record(&opts));
    }
}

/// Every row of `steps` steps of a batch of `games` games on `threads` threads.
fn run(opts: EpisodeOptions, games: usize, threads: usize, steps: usize) -> Vec<OwnedRows> {
    let seeds: Vec<u64> = (0..games as u64).map(|s| s * 31 + 5).collect();
    let mut env = VecEnv::new(opts, &seeds, threads).unwrap();
    assert_eq!(env.threads(), threads);
    let mut rows = OwnedRows::new(games);
    env.reset(rows.rows(), None, None, None).unwrap();
    let mut seen = vec![rows.clone()];
    for t in 0..steps {
        let acts = actions(rows.status(), t);
        env.step(&acts, rows.rows()).unwrap();
        seen.push(rows.clone());
    }
    seen
}

#[test]
fn one_thread_and_two_write_the_same_rows() {
    // Enough games for the helper to take a share (a batch of 128 or more).
    let opts = oware();
    assert_eq!(run(opts, 300, 1, 150), run(opts, 300, 2, 150));
    let penalized = EpisodeOptions {
        illegal: IllegalAction::Penalize(-1.0),
        max_steps: Some(20),
        ..opts
    };
    assert_eq!(run(penalized, 260, 1, 60), run(penalized, 260, 3, 60));
    // A searching opponent: episodes of full games.
    let greedy = EpisodeOptions {
        opponent: Opponent::Agent(Kind::Greedy, Budget::Depth(1)),
        ..opts
    };
    assert_eq!(run(greedy, 130, 1, 30), run(greedy, 130, 2, 30));
}

#[test]
fn a_refused_batch_changes_nothing_and_says_which_game() {
    let opts = oware();
    let mut env = VecEnv::new(opts, &[1, 2, 3], 1).unwrap();
    let mut rows = OwnedRows::new(3);
    // Before the first reset every game is over (autoreset: its action is ignored).
    env.reset(rows.rows(), None, None, None).unwrap();
    let before = rows.clone();
    let records = env.records().unwrap();
    let mut acts = actions(rows.status(), 0);
    acts[1] = 6;
    let e = env.step(&acts, rows.rows()).unwrap_err();
    assert!(matches!(
        e,
        VecEnvError::Refused {
            game: 1,
            error: ActionError::OutOfRange(6)
        }
    ));
    assert_eq!(
        e.to_string(),
        "game 1: action 6 is outside the action space 0..5"
    );
    // An illegal action: game 2 with every pit but one legal at the start
    // is shown the mask; take one it does not show.
    acts[1] = 0;
    let illegal = (0..6).find(|a| rows.status()[2] & (1 << a) == 0);
    if let Some(a) = illegal {
        acts[2] = a;
        let e = env.step(&acts, rows.rows()).unwrap_err();
        assert!(matches!(
            e,
            VecEnvError::Refused {
                game: 2,
                error: ActionError::Illegal(_)
            }
        ));
    }
    let e = env.step(&acts[..2], rows.rows()).unwrap_err();
    assert_eq!(e.to_string(), "expected 3 actions (one a game), got 2");
    let mut short = OwnedRows::new(2);
    let e = env
        .step(&actions(rows.status(), 0), short.rows())
        .unwrap_err();
    assert!(matches!(e, VecEnvError::Rows(_)), "{e}");
    assert_eq!(rows, before);
    assert_eq!(env.records().unwrap(), records);
    // A reset's mask must be one a game.
    let e = env
        .reset(rows.rows(), Some(&[true, false]), None, None)
        .unwrap_err();
    assert!(matches!(
        e,
        VecEnvError::ResetLength {
            what: "mask",
            len: 2,
            games: 3
        }
    ));
}

#[test]
fn construction_errors_are_typed() {
    let opts = oware();
    assert!(matches!(
        VecEnv::new(opts, &[], 1),
        Err(VecEnvError::NoGames)
    ));
    let e = VecEnv::new(opts, &[1], 5000).err().map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some("threads is 0 (every core) or 1 to 1024, not 5000")
    );
    let env = VecEnv::new(opts, &[1], 0).unwrap();
    assert!(env.threads() >= 1);
}

#[test]
fn a_masked_reset_with_a_seed_and_seat_restarts_only_those_games() {
    let opts = EpisodeOptions {
        seat: ayo_core::episode::SeatChoice::Fixed(Player::South),
        ..oware()
    };
    let mut env = VecEnv::new(opts, &[1, 2], 1).unwrap();
    let mut rows = OwnedRows::new(2);
    env.reset(rows.rows(), None, None, None).unwrap();
    for t in 0..3 {
        env.step(&actions(rows.status(), t), rows.rows()).unwrap();
    }
    let ply_before = rows.rows().ply[0];
    env.reset(
        rows.rows(),
        Some(&[false, true]),
        Some(&[None, Some(99)]),
        Some(Player::North),
    )
    .unwrap();
    let r = rows.rows();
    assert_eq!(r.ply[0], ply_before);
    assert_eq!(r.seat[1], 1);
    // Game 1 now plays the episode of seed 99 as North.
    let mut ep: Episode<LeanGame> = Episode::new(&opts, 99);
    ep.reset(&opts, Some(Player::North));
    assert_eq!(
        &r.obs[OBS..2 * OBS],
        &ep.observe(&opts).view.map(f32::from)[..]
    );
}

#[test]
fn a_state_restores_into_a_new_batch_and_a_bad_one_changes_nothing() {
    let opts = oware();
    let seeds = [4u64, 5, 6];
    let mut env = VecEnv::new(opts, &seeds, 1).unwrap();
    let mut rows = OwnedRows::new(3);
    env.reset(rows.rows(), None, None, None).unwrap();
    for t in 0..7 {
        env.step(&actions(rows.status(), t), rows.rows()).unwrap();
    }
    let state = env.state().unwrap();
    let mut copy = VecEnv::new(opts, &seeds, 1).unwrap();
    let mut copy_rows = OwnedRows::new(3);
    copy.restore(state.clone(), copy_rows.rows()).unwrap();
    assert_eq!(copy.status(), env.status());
    for t in 7..40 {
        let acts = actions(rows.status(), t);
        env.step(&acts, rows.rows()).unwrap();
        copy.step(&acts, copy_rows.rows()).unwrap();
        assert_eq!(copy_rows.rows().obs, rows.rows().obs);
        assert_eq!(copy_rows.rows().reward, rows.rows().reward);
    }
    // The last action once more: replayed for the other player, it leaves
    // the opponent to move in an episode not marked done (or does not
    // replay): nothing is restored.
    let before = copy.records().unwrap();
    let mut bad = state;
    let last = *bad[2].1.last().expect("game 2 has moves");
    bad[2].1.push(last);
    let e = copy.restore(bad, copy_rows.rows());
    assert!(
        matches!(
            e,
            Err(VecEnvError::Replay { game: 2, .. } | VecEnvError::Restore { game: 2, .. })
        ),
        "{e:?}"
    );
    assert_eq!(copy.records().unwrap(), before);
}

#[test]
fn the_mirror_brings_the_full_game_up_to_date() {
    let opts = oware();
    let mut kept = Mirrored::new(&opts);
    let Mirrored::Lean(ep, _) = &mut kept else {
        panic!("the random opponent keeps a lean episode")
    };
    ep.reset(&opts, None);
    for _ in 0..5 {
        let legal = ep.observe(&opts).legal;
        ep.step(&opts, Checked::Legal(legal.trailing_zeros() as u8));
    }
    let moves = match &kept {
        Mirrored::Lean(ep, _) => ep.moves().to_vec(),
        Mirrored::Full(_) => unreachable!(),
    };
    let game = kept.full_game().unwrap();
    assert_eq!(game.moves(), &moves[..]);
    // Asked again: the same game, nothing replayed twice.
    assert_eq!(kept.full_game().unwrap().moves(), &moves[..]);
    let searching = EpisodeOptions {
        opponent: Opponent::Agent(Kind::Greedy, Budget::Depth(1)),
        ..opts
    };
    assert!(matches!(Mirrored::new(&searching), Mirrored::Full(_)));
}
