//! Computer players: uniform random, greedy, alpha-beta and MCTS, and the levels built from them.
