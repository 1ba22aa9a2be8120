//! Python bindings for the ayo rules engine (the `ayo._ayo` extension).
