//! The episode (`ayo_core::episode`): the same episode on a lean and a full
//! game, rewards that add up to the final margin, penalties, truncation and
//! the autoreset modes.

use ayo_core::episode::{
    check_action, ActionError, Autoreset, Checked, Episode, EpisodeGame, EpisodeOptions,
    IllegalAction, Opponent, Reward, SeatChoice,
};
use ayo_core::players::{Budget, Kind};
use ayo_core::{Game, LeanGame, Player, Preset, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn first_legal(legal: u8) -> u8 {
    legal.trailing_zeros() as u8
}

/// One step of [`episode_log`]: the action, the board after the step, the
/// reward, terminated and truncated.
type Logged = (u8, [u8; 12], f64, bool, bool);

/// Plays `steps` steps of random legal actions drawn from `seed` (the
/// options say who replies, if anyone), logging each step.
fn episode_log<G: EpisodeGame>(opts: &EpisodeOptions, seed: u64, steps: usize) -> Vec<Logged> {
    let mut ep: Episode<G> = Episode::new(opts, seed);
    ep.reset(opts, None);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut log = Vec::new();
    for _ in 0..steps {
        let legal = ep.observe(opts).legal;
        let k = rng.random_range(0..legal.count_ones().max(1));
        let action = (0..6)
            .filter(|a| legal & (1 << a) != 0)
            .nth(k as usize)
            .unwrap_or(0);
        let step = ep.step(opts, Checked::Legal(action));
        let board = ep.game().position().board();
        log.push((action, board, step.reward, step.terminated, step.truncated));
    }
    log
}

#[test]
fn lean_and_full_games_play_the_same_self_play_episodes() {
    for preset in Preset::ALL {
        let mut opts = EpisodeOptions::new(preset.rules());
        opts.opponent = Opponent::SelfPlay;
        opts.reward = Reward::SeedDifference;
        opts.max_steps = Some(150);
        for seed in 0..4 {
            assert_eq!(
                episode_log::<LeanGame>(&opts, seed, 600),
                episode_log::<Game>(&opts, seed, 600),
                "{preset:?} seed {seed}"
            );
        }
    }
}

#[test]
fn lean_and_full_games_play_the_same_episodes_against_the_random_opponent() {
    // The random opponent draws alike over either game (`random_move`),
    // endless relays (the relay presets, and 2 seeds a pit where they are
    // common) struck off the same way.
    let mut small = Preset::Ayoayo.rules().params();
    small.seeds_per_pit = 2;
    small.target = Some(13);
    let small = Rules::new(small).unwrap();
    let mut sets: Vec<Rules> = Preset::ALL.iter().map(|p| p.rules()).collect();
    sets.push(small);
    for rules in sets {
        for seat in [
            SeatChoice::Fixed(Player::South),
            SeatChoice::Fixed(Player::North),
            SeatChoice::Random,
        ] {
            let mut opts = EpisodeOptions::new(rules);
            opts.seat = seat;
            opts.max_steps = Some(100);
            for seed in 0..6 {
                assert_eq!(
                    episode_log::<LeanGame>(&opts, seed, 400),
                    episode_log::<Game>(&opts, seed, 400),
                    "{rules} {seat:?} seed {seed}"
                );
            }
        }
    }
}

#[test]
fn seed_difference_returns_add_up_to_the_final_margin() {
    for preset in Preset::ALL {
        for seat in Player::BOTH {
            let mut opts = EpisodeOptions::new(preset.rules());
            opts.reward = Reward::SeedDifference;
            opts.seat = SeatChoice::Fixed(seat);
            opts.autoreset = Autoreset::Disabled;
            let mut ep: Episode<LeanGame> = Episode::new(&opts, 11);
            ep.reset(&opts, None);
            let mut total = 0.0;
            loop {
                let legal = ep.observe(&opts).legal;
                let step = ep.step(&opts, Checked::Legal(first_legal(legal)));
                total += step.reward;
                if step.terminated {
                    let o = step.outcome.expect("a game that ended has an outcome");
                    let margin = i32::from(o.scores[seat.index()])
                        - i32::from(o.scores[seat.opponent().index()]);
                    assert_eq!(total, f64::from(margin), "{preset:?} {seat:?}");
                    assert!(ep.is_done());
                    break;
                }
            }
        }
    }
}

#[test]
fn a_searching_opponent_reads_the_episodes_own_game() {
    let mut opts = EpisodeOptions::new(Rules::preset("oware").unwrap());
    opts.opponent = Opponent::Agent(Kind::AlphaBeta, Budget::Depth(2));
    opts.seat = SeatChoice::Fixed(Player::North);
    let mut ep: Episode<Game> = Episode::new(&opts, 3);
    ep.reset(&opts, None);
    // The opponent (South) opened; the agent is to move.
    assert_eq!(ep.game().moves().len(), 1);
    assert_eq!(ep.game().position().to_move(), Player::North);
    let legal = ep.observe(&opts).legal;
    ep.step(&opts, Checked::Legal(first_legal(legal)));
    assert_eq!(ep.moves(), ep.game().moves());
}

#[test]
fn penalties_truncation_and_autoreset() {
    let rules = Rules::preset("ayoayo").unwrap();
    let mut opts = EpisodeOptions::new(rules);
    opts.illegal = IllegalAction::Penalize(-2.5);
    let mut ep: Episode<LeanGame> = Episode::new(&opts, 1);
    ep.reset(&opts, None);
    let legal = ep.observe(&opts).legal;
    assert_eq!(legal, 0b11_1111);
    // Every action is legal at the start: a penalized one is given as such.
    let step = ep.step(&opts, Checked::Penalized(4));
    assert_eq!(
        (step.reward, step.terminated, step.penalized),
        (-2.5, true, Some(4))
    );
    assert_eq!(ep.observe(&opts).legal, 0);
    // NextStep: the next step resets and ignores its action.
    let step = ep.step(&opts, Checked::Legal(0));
    assert!(step.was_reset && !ep.is_done());

    // Three moves cannot end an oware game: the limit truncates it.
    let mut opts = EpisodeOptions::new(Rules::preset("oware").unwrap());
    opts.max_steps = Some(3);
    opts.autoreset = Autoreset::SameStep;
    let mut ep: Episode<LeanGame> = Episode::new(&opts, 1);
    ep.reset(&opts, None);
    let mut last = None;
    for _ in 0..3 {
        let legal = ep.observe(&opts).legal;
        last = Some(ep.step(&opts, Checked::Legal(first_legal(legal))));
    }
    let last = last.unwrap();
    assert!(last.truncated && !last.terminated);
    assert!(last.final_observation.is_some());
    assert!(!ep.is_done(), "the same step started a new episode");
    assert_eq!(
        ep.moves().len(),
        0,
        "the agent (South) opens the new episode"
    );
}

#[test]
fn actions_are_checked_once_in_one_place() {
    assert_eq!(check_action(0b101, 0, false), Ok(Checked::Legal(0)));
    assert_eq!(check_action(0b101, 1, true), Ok(Checked::Penalized(1)));
    assert!(matches!(
        check_action(0b101, 1, false),
        Err(ActionError::Illegal(_))
    ));
    assert_eq!(
        check_action(0b101, 6, true),
        Err(ActionError::OutOfRange(6))
    );
    assert_eq!(
        check_action(0b101, -1, true),
        Err(ActionError::OutOfRange(-1))
    );
    let opts = EpisodeOptions::new(Rules::preset("oware").unwrap());
    let mut ep: Episode<LeanGame> = Episode::new(&opts, 0);
    assert_eq!(ep.check(&opts, 0), Err(ActionError::EpisodeOver));
    ep.reset(&opts, None);
    assert_eq!(ep.check(&opts, 2), Ok(Checked::Legal(2)));
}

#[test]
fn the_same_seed_gives_the_same_episodes() {
    let mut opts = EpisodeOptions::new(Rules::preset("ayo").unwrap());
    opts.seat = SeatChoice::Random;
    let run = |seed| {
        let mut ep: Episode<LeanGame> = Episode::new(&opts, seed);
        let mut records = Vec::new();
        for _ in 0..5 {
            ep.reset(&opts, None);
            while !ep.is_done() {
                let legal = ep.observe(&opts).legal;
                ep.step(&opts, Checked::Legal(first_legal(legal)));
                if ep.moves().len() > 300 {
                    break;
                }
            }
            records.push((ep.seat(), ep.record(&opts)));
        }
        records
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

/// Issue #37: a restored state is checked against its options and its game;
/// one that does not hold together is refused and changes nothing.
#[test]
fn restore_refuses_a_state_that_does_not_hold_together() {
    use ayo_core::episode::{check_history, check_restore};
    let oware = EpisodeOptions::new(Rules::preset("oware").unwrap());
    let ayoayo = EpisodeOptions::new(Rules::preset("ayoayo").unwrap());
    let mut ep: Episode<Game> = Episode::new(&oware, 3);
    ep.reset(&oware, None);
    for _ in 0..3 {
        let legal = ep.observe(&oware).legal;
        ep.step(&oware, Checked::Legal(first_legal(legal)));
    }
    let snapshot = ep.snapshot();
    let game = ep.game().clone();
    let moves = ep.moves().to_vec();
    // Another rule set's options: refused, the episode unchanged.
    let mut other: Episode<Game> = Episode::new(&ayoayo, 1);
    other.reset(&ayoayo, None);
    let kept = other.snapshot();
    let e = other
        .restore(&ayoayo, snapshot.clone(), game.clone(), moves.clone())
        .unwrap_err();
    assert!(e.to_string().contains("rules"), "{e}");
    assert_eq!(other.snapshot(), kept);
    // Moves that are not the game's last.
    let wrong = vec![game.moves()[0]; 2];
    let e = check_history(&oware, &game, &wrong).unwrap_err();
    assert!(e.to_string().contains("last moves"), "{e}");
    // The agent not to move in an episode that goes on.
    let mut flipped = game.clone();
    let legal = flipped.legal_action_mask();
    flipped
        .play(
            flipped
                .position()
                .move_for_action(first_legal(legal))
                .unwrap(),
        )
        .unwrap();
    assert!(flipped.outcome().is_none());
    let e = check_restore(&oware, &snapshot, &mut flipped).unwrap_err();
    assert!(e.to_string().contains("agent is not to move"), "{e}");
    // The state itself loads back.
    let mut same: Episode<Game> = Episode::new(&oware, 9);
    same.restore(&oware, snapshot.clone(), game, moves).unwrap();
    assert_eq!(same.snapshot(), snapshot);
}
