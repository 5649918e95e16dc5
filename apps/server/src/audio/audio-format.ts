/**
 * Inside the server audio is mono PCM16 at 16 kHz in 20 ms frames; a voice transport converts at its edge
 * (G.711 μ-law/A-law at 8 kHz is decoded and resampled there, and encoded again on the way out).
 */

export const SAMPLE_RATE = 16_000;
export const FRAME_MS = 20;
/** Samples in one 20 ms frame at 16 kHz. */
export const FRAME_SAMPLES = (SAMPLE_RATE * FRAME_MS) / 1000;
