use ayo_core::{Game, Rules};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut game = Game::new(Rules::preset("ayoayo")?);
    // Moves are named by the mover's own pits 1..=6 (or actions 0..=5).
    game.play(game.position().move_for_relative_pit(3)?)?;
    // Every legal move, ascending; a move's sowing, event by event.
    let mv = game.legal_moves()[0];
    let trace = game.trace(mv)?;
    println!("{} laps, last seed in pit {}", trace.laps, trace.last_pit);
    while game.outcome().is_none() {
        game.play(game.legal_moves()[0])?;
    }
    println!("{} — {}", game.outcome().unwrap(), game.record());
    Ok(())
}
