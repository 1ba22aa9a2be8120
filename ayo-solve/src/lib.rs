//! Endgame databases and exact solving of relay-sowing Ayo games.
