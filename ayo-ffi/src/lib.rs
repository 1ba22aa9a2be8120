//! C ABI for the ayo rules engine (see include/ayo.h).
