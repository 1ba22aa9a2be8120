//! What runs the hot loops: the CPU kernel picked once, the lane engine, and
//! the thread-count rule.

pub mod dispatch; // the kernel chosen for this CPU, and the loops run through it
pub mod lanes; // many moves at once in byte lanes
pub mod threads; // how many threads a job gets
