//! The proptest strategies the property tests share.

use ayo_core::{
    Capture, Feeding, FoursTo, GrandSlam, Player, Repetition, RuleParams, Rules, StuckSeeds,
};
use proptest::prelude::*;

/// Any valid rule set: every parameter drawn.
pub fn any_rules() -> impl Strategy<Value = Rules> {
    let enums = (
        any::<bool>(),
        prop_oneof![
            Just(Capture::Across),
            Just(Capture::TwoThree),
            Just(Capture::CollectFour)
        ],
        any::<bool>(),
        prop_oneof![Just(FoursTo::Mover), Just(FoursTo::PitOwner)],
        any::<bool>(),
        prop_oneof![Just(GrandSlam::Allowed), Just(GrandSlam::NoCapture)],
        prop_oneof![
            Just(Feeding::Off),
            Just(Feeding::Strict),
            Just(Feeding::IfPossible),
            Just(Feeding::NoStarving)
        ],
        prop_oneof![Just(StuckSeeds::ToOpponent), Just(StuckSeeds::OwnSide)],
    );
    let numbers = (
        1u8..=6,
        proptest::option::of(1u16..=40),
        proptest::option::of(1u16..=80),
        prop_oneof![Just(Repetition::Off), Just(Repetition::OwnSide)],
        prop_oneof![Just(Player::South), Just(Player::North)],
    );
    (enums, numbers).prop_filter_map(
        "target above the seeds in play",
        |(
            (
                relay,
                capture,
                capturing_seed_taken,
                fours_to,
                skip_origin,
                grand_slam,
                feeding,
                stuck_seeds,
            ),
            (seeds_per_pit, target, move_limit, repetition, first_player),
        )| {
            Rules::new(RuleParams {
                relay,
                capture,
                capturing_seed_taken,
                fours_to,
                skip_origin,
                grand_slam,
                feeding,
                stuck_seeds,
                target,
                move_limit,
                repetition,
                seeds_per_pit,
                first_player,
            })
            .ok()
        },
    )
}
