//! The core's errors as C results: each kind of `ayo_core` / `ayo_solve`
//! error maps to its result code, with the core's message.

use ayo_core::{IllegalMove, RecordError, RulesError};
use ayo_solve::DbError;

use crate::result::{ayo_record_field, ayo_result};
use crate::util::Fail;

impl From<IllegalMove> for Fail {
    fn from(e: IllegalMove) -> Fail {
        let code = match e {
            IllegalMove::PitOutOfRange { .. } => ayo_result::PitOutOfRange,
            IllegalMove::ActionOutOfRange { .. } => ayo_result::ActionOutOfRange,
            IllegalMove::NotMoversPit { .. } => ayo_result::NotMoversPit,
            IllegalMove::EmptyPit { .. } => ayo_result::EmptyPit,
            IllegalMove::EndlessRelay { .. } => ayo_result::EndlessRelay,
            IllegalMove::DoesNotFeed { .. } => ayo_result::DoesNotFeed,
            IllegalMove::GameOver => ayo_result::GameOver,
            IllegalMove::Truncated => ayo_result::Truncated,
        };
        Fail::new(code, e.to_string())
    }
}

impl From<RulesError> for Fail {
    fn from(e: RulesError) -> Fail {
        let code = match e {
            RulesError::Invalid { .. } => ayo_result::InvalidRules,
            RulesError::UnknownPreset { .. } => ayo_result::UnknownPreset,
            RulesError::UnknownParam { .. } => ayo_result::UnknownParam,
            RulesError::BadValue { .. } => ayo_result::BadParamValue,
        };
        Fail::new(code, e.to_string())
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
        Fail::new(code, e.to_string())
    }
}

impl From<&RecordError> for Fail {
    fn from(e: &RecordError) -> Fail {
        let field = match e.field {
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
        };
        Fail {
            code: ayo_result::MalformedRecord,
            message: e.to_string(),
            record: Some((field, e.offset)),
        }
    }
}
