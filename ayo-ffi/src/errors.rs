//! The core's errors as C results: each kind of `ayo_core` / `ayo_solve`
//! error maps to its result code, with a message in the C caller's words.
//!
//! The core's messages speak Rust and Python: absolute pits and actions
//! 0..5 in its move errors, `a..=b` ranges in its parse errors. A C caller
//! names pits 1 to 6 from the mover's side (`ayo_game_play`, records) or
//! absolute pits 0 to 11 (`ayo_game_play_pit`), so move errors are worded
//! here from their typed fields, and ranges are written `a to b`.

use ayo_core::{record, IllegalMove, Player, RecordError, RulesError};
use ayo_solve::DbError;

use crate::result::{ayo_record_field, ayo_result};
use crate::util::Fail;

/// How the C call named the pit it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Numbering {
    /// The mover's pits 1 to 6 (`ayo_game_play`, `ayo_game_trace`, records).
    Relative,
    /// Absolute pits 0 to 11 (`ayo_game_play_pit`).
    Absolute,
}

fn side(p: Player) -> &'static str {
    match p {
        Player::South => "South",
        Player::North => "North",
    }
}

/// "North's pit 2": absolute `pit` as its owner's pit 1 to 6.
fn owners_pit(pit: usize) -> String {
    format!("{}'s pit {}", side(Player::owner_of(pit)), pit % 6 + 1)
}

/// Absolute `pit` as the caller named it.
fn pit_words(pit: usize, numbering: Numbering) -> String {
    match numbering {
        Numbering::Relative => owners_pit(pit),
        Numbering::Absolute => format!("absolute pit {pit} ({})", owners_pit(pit)),
    }
}

/// The message of an illegal move, in the numbering of the C call that made it.
pub(crate) fn illegal_move_message(e: &IllegalMove, numbering: Numbering) -> String {
    match *e {
        IllegalMove::PitOutOfRange { pit } => {
            format!("absolute pit {pit} is not on the board: absolute pits are numbered 0 to 11")
        }
        IllegalMove::ActionOutOfRange { action } => format!(
            "pit {action} is out of range: the pits of the player to move are numbered 1 to 6"
        ),
        IllegalMove::NotMoversPit { pit, mover } => format!(
            "absolute pit {pit} is {}, but {} is to move (absolute pits {} to {})",
            owners_pit(pit),
            side(mover),
            mover.index() * 6,
            mover.index() * 6 + 5
        ),
        IllegalMove::EmptyPit { pit } => format!("{} is empty", pit_words(pit, numbering)),
        IllegalMove::EndlessRelay { pit } => {
            format!("sowing {} would relay forever", pit_words(pit, numbering))
        }
        IllegalMove::DoesNotFeed { pit } => format!(
            "sowing {} does not feed {}'s empty row",
            pit_words(pit, numbering),
            side(Player::owner_of(pit).opponent())
        ),
        IllegalMove::Starves { pit } => format!(
            "sowing {} leaves {}'s row empty, while another move leaves seeds there",
            pit_words(pit, numbering),
            side(Player::owner_of(pit).opponent())
        ),
        IllegalMove::GameOver => "the game is over".to_owned(),
        IllegalMove::Truncated => "the game has reached its ply cap".to_owned(),
    }
}

/// An illegal move as a C result, worded in `numbering`.
pub(crate) fn illegal_move(e: IllegalMove, numbering: Numbering) -> Fail {
    let code = match e {
        IllegalMove::PitOutOfRange { .. } => ayo_result::PitOutOfRange,
        IllegalMove::ActionOutOfRange { .. } => ayo_result::ActionOutOfRange,
        IllegalMove::NotMoversPit { .. } => ayo_result::NotMoversPit,
        IllegalMove::EmptyPit { .. } => ayo_result::EmptyPit,
        IllegalMove::EndlessRelay { .. } => ayo_result::EndlessRelay,
        IllegalMove::DoesNotFeed { .. } => ayo_result::DoesNotFeed,
        IllegalMove::Starves { .. } => ayo_result::Starves,
        IllegalMove::GameOver => ayo_result::GameOver,
        IllegalMove::Truncated => ayo_result::Truncated,
    };
    Fail::new(code, illegal_move_message(&e, numbering))
}

/// A core message with its Rust ranges `a..=b` written `a to b`.
pub(crate) fn c_words(message: impl std::fmt::Display) -> String {
    let text = message.to_string();
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("..=") {
        let (before, after) = (&rest[..at], &rest[at + 3..]);
        let number_before = before.ends_with(|c: char| c.is_ascii_digit());
        let number_after = after.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
        out.push_str(before);
        out.push_str(if number_before && number_after {
            " to "
        } else {
            "..="
        });
        rest = after;
    }
    out.push_str(rest);
    out
}

impl From<RulesError> for Fail {
    fn from(e: RulesError) -> Fail {
        let code = match e {
            RulesError::Invalid { .. } => ayo_result::InvalidRules,
            RulesError::UnknownPreset { .. } => ayo_result::UnknownPreset,
            RulesError::UnknownParam { .. } => ayo_result::UnknownParam,
            RulesError::BadValue { .. } => ayo_result::BadParamValue,
        };
        Fail::new(code, c_words(e))
    }
}

impl From<DbError> for Fail {
    fn from(e: DbError) -> Fail {
        let code = match e {
            DbError::UnsupportedRules { .. } => ayo_result::DatabaseUnsupportedRules,
            DbError::Missing { .. } | DbError::LayerGap { .. } => ayo_result::DatabaseMissing,
            DbError::BadMagic { .. }
            | DbError::Version { .. }
            | DbError::RulesMismatch { .. }
            | DbError::LayerMismatch { .. }
            | DbError::CountMismatch { .. }
            | DbError::Length { .. }
            | DbError::TruncatedHeader { .. }
            | DbError::HeaderChecksum { .. }
            | DbError::DataChecksum { .. } => ayo_result::DatabaseDamaged,
            DbError::Io { .. } => ayo_result::DatabaseIo,
            DbError::LayerTooLarge { .. } => ayo_result::InvalidArgument,
            DbError::OutOfMemory { .. } => ayo_result::DatabaseOutOfMemory,
        };
        Fail::new(code, c_words(e))
    }
}

/// The field of a record error, as C names it.
fn record_field(field: &str) -> ayo_record_field {
    match field {
        "rules" => ayo_record_field::Rules,
        "board" => ayo_record_field::Board,
        "stores" => ayo_record_field::Stores,
        "to_move" => ayo_record_field::ToMove,
        "no_capture" => ayo_record_field::NoCapture,
        "ply" => ayo_record_field::Ply,
        "separator" => ayo_record_field::Separator,
        "move" => ayo_record_field::Move,
        "position" => ayo_record_field::Position,
        "end" => ayo_record_field::End,
        _ => ayo_record_field::Other,
    }
}

/// The message of an illegal move in the game record `text`, worded from
/// its typed error: the core replays the record up to the move (every move
/// before it is legal) and is asked for that move again. `None` when the
/// move is not a pit number at all (the core's message says so).
fn record_move_message(text: &str, e: &RecordError) -> Option<String> {
    let game = record::parse_game(text.get(..e.offset)?).ok()?;
    let token = text.get(e.offset..)?.split_whitespace().next()?;
    let pit: u8 = token.parse().ok()?;
    let illegal = match game.position().move_for_relative_pit(pit) {
        Err(illegal) => illegal,
        Ok(mv) => game.clone().play(mv).err()?,
    };
    Some(format!(
        "bad move at offset {}: move {} is illegal: {}",
        e.offset,
        game.moves().len() + 1,
        illegal_move_message(&illegal, Numbering::Relative)
    ))
}

/// A record that failed to parse (the text `text`) as a C result.
pub(crate) fn record_error(text: &str, e: &RecordError) -> Fail {
    let message = match e.field {
        "move" => record_move_message(text, e),
        _ => None,
    };
    Fail {
        code: ayo_result::MalformedRecord,
        message: message.unwrap_or_else(|| c_words(e)),
        record: Some((record_field(e.field), e.offset)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_in_c_words() {
        assert_eq!(c_words("a seed count 0..=255"), "a seed count 0 to 255");
        assert_eq!(
            c_words("layers found: 0..=4, 6..=8"),
            "layers found: 0 to 4, 6 to 8"
        );
        assert_eq!(c_words("[-3..=+5] and x..=y"), "[-3 to +5] and x..=y");
        assert_eq!(c_words("no range"), "no range");
    }

    #[test]
    fn move_errors_name_the_callers_pits() {
        let relative = |e| illegal_move_message(&e, Numbering::Relative);
        let absolute = |e| illegal_move_message(&e, Numbering::Absolute);
        assert_eq!(
            relative(IllegalMove::EmptyPit { pit: 7 }),
            "North's pit 2 is empty"
        );
        assert_eq!(
            absolute(IllegalMove::EmptyPit { pit: 7 }),
            "absolute pit 7 (North's pit 2) is empty"
        );
        assert_eq!(
            relative(IllegalMove::DoesNotFeed { pit: 0 }),
            "sowing South's pit 1 does not feed North's empty row"
        );
        assert_eq!(
            absolute(IllegalMove::NotMoversPit {
                pit: 3,
                mover: Player::North
            }),
            "absolute pit 3 is South's pit 4, but North is to move (absolute pits 6 to 11)"
        );
        for numbering in [Numbering::Relative, Numbering::Absolute] {
            for e in [
                IllegalMove::ActionOutOfRange { action: 0 },
                IllegalMove::PitOutOfRange { pit: 12 },
                IllegalMove::EndlessRelay { pit: 11 },
            ] {
                let m = illegal_move_message(&e, numbering);
                assert!(!m.contains("..") && !m.contains("action"), "{m}");
            }
        }
    }
}
