//! The batch's Python arguments turned into ayo-core's
//! [`EpisodeOptions`] (every check of their values is the core's, and its
//! messages are the errors' text).

use std::str::FromStr;

use ayo_core::episode::{
    Autoreset, EpisodeOptions, IllegalAction, Opponent, Perspective, Reward, SeatChoice,
};
use ayo_core::players::{Budget, Kind, Level};
use ayo_core::{Player, Rules};
use pyo3::prelude::*;

use crate::errors::AyoError;

fn core<E: std::fmt::Display>(e: E) -> PyErr {
    AyoError::new_err(e.to_string())
}

/// Parses the `opponent` argument: `None` (self-play), "random", "greedy",
/// a level (1..8, "max"; its budget for `rules`), or an `ayo.Player` (one
/// made from a level plays that level's budget for `rules`; otherwise its
/// kind and budget).
pub(crate) fn opponent_from(obj: Option<&Bound<'_, PyAny>>, rules: &Rules) -> PyResult<Opponent> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Opponent::SelfPlay);
    };
    let bad = || {
        AyoError::new_err(format!(
            "opponent must be None (self-play), \"random\", \"greedy\", a level 1..8 or \"max\", \
             or an ayo.Player, not {}",
            obj.repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    let level_spec = |level: Level| {
        let (kind, budget) = level.spec_for(rules);
        Opponent::Agent(kind, budget)
    };
    if let Ok(n) = obj.extract::<i64>() {
        let level = u8::try_from(n)
            .ok()
            .filter(|n| (1..=8).contains(n))
            .and_then(Level::new);
        return level.map(level_spec).ok_or_else(bad);
    }
    if let Ok(s) = obj.extract::<String>() {
        if let Ok(kind) = Kind::from_str(&s) {
            return match kind {
                Kind::Random => Ok(Opponent::RANDOM),
                Kind::Greedy => Ok(Opponent::Agent(kind, Budget::Depth(1))),
                _ => Err(bad()),
            };
        }
        return Level::from_str(&s).map(level_spec).map_err(|_| bad());
    }
    if let Ok(player) = obj.cast::<crate::ai::PyPlayer>() {
        let player = player.get();
        if let Some(level) = player.level_value() {
            return Ok(level_spec(level));
        }
        let (kind, budget) = player.spec().ok_or_else(bad)?;
        if matches!(budget, Budget::Time(_)) {
            return Err(AyoError::new_err(
                "a batch opponent needs a depth or node budget (a time budget is not reproducible)",
            ));
        }
        return Ok(Opponent::Agent(kind, budget));
    }
    Err(bad())
}

/// `agent_seat`: None (South), 0, 1, "alternate" or "random".
pub(crate) fn seat_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<SeatChoice> {
    let Some(obj) = obj else {
        return Ok(SeatChoice::Fixed(Player::South));
    };
    let bad = || AyoError::new_err("agent_seat must be 0, 1, \"alternate\" or \"random\"");
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    if let Ok(n) = obj.extract::<i64>() {
        return SeatChoice::from_str(&n.to_string()).map_err(|_| bad());
    }
    match obj.extract::<String>() {
        Ok(s) if s != "0" && s != "1" => SeatChoice::from_str(&s).map_err(|_| bad()),
        _ => Err(bad()),
    }
}

/// A seat given as 0 or 1 (a reset's override).
pub(crate) fn player_from(seat: i64) -> PyResult<Player> {
    usize::try_from(seat)
        .ok()
        .and_then(Player::from_index)
        .ok_or_else(|| AyoError::new_err(format!("agent_seat must be 0 or 1, not {seat}")))
}

/// Every option of an episode from the environments' keyword arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) fn episode_options(
    rules: Rules,
    opponent: Opponent,
    agent_seat: Option<&Bound<'_, PyAny>>,
    perspective: &str,
    reward: &str,
    illegal_action: &str,
    illegal_penalty: f64,
    max_episode_steps: Option<i64>,
    autoreset_mode: &str,
) -> PyResult<EpisodeOptions> {
    Ok(EpisodeOptions {
        rules,
        opponent,
        seat: seat_from(agent_seat)?,
        perspective: Perspective::from_str(perspective).map_err(core)?,
        reward: Reward::from_str(reward).map_err(core)?,
        illegal: IllegalAction::parse(illegal_action, illegal_penalty).map_err(core)?,
        max_steps: max_episode_steps
            .map(|m| EpisodeOptions::max_steps_from(i128::from(m)))
            .transpose()
            .map_err(core)?,
        autoreset: Autoreset::from_str(autoreset_mode).map_err(core)?,
    })
}
