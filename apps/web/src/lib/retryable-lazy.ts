import { type ComponentType, createElement, lazy } from "react";

export type RetryableLazyComponent<Props extends object> = ComponentType<Props> & {
  /** After a failed load: the next render loads again (call it before the error boundary resets). */
  retry(): void;
};

/**
 * A component whose code is loaded on first render, like React.lazy, that can load again after a failed
 * load. React keeps a lazy component's rejected load for good, so an error boundary's "Try again" alone
 * would only meet the same error.
 */
export function retryableLazy<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): RetryableLazyComponent<Props> {
  let failed = false;
  const attempt = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          failed = true;
          throw error;
        },
      ),
    );
  let current = attempt();
  // biome-ignore lint/correctness/noComponentHookFactories: called once per component at module level, as React.lazy is
  function RetryableLazy(props: Props) {
    return createElement(current, props);
  }
  RetryableLazy.retry = () => {
    if (!failed) return;
    failed = false;
    current = attempt();
  };
  return RetryableLazy;
}
