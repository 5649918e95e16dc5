/** The parts of @echogarden/fvad-wasm (libfvad compiled with Emscripten) the VAD uses; it ships no types. */
declare module "@echogarden/fvad-wasm" {
  export type FvadModule = {
    _fvad_new(): number;
    _fvad_free(instance: number): void;
    _fvad_reset(instance: number): void;
    _fvad_set_mode(instance: number, mode: number): number;
    _fvad_set_sample_rate(instance: number, rate: number): number;
    _fvad_process(instance: number, frame: number, length: number): number;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HEAP16: Int16Array;
  };
  const createFvad: () => Promise<FvadModule>;
  export default createFvad;
}
