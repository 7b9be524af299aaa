/**
 * The few browser objects the host touches, as structural shapes: the package type-checks
 * without the DOM library, and any real `HTMLElement`, `HTMLIFrameElement` and `Window`
 * satisfies them (so do test doubles).
 */

/** A window the host posts to (an iframe's `contentWindow`). */
export interface PostTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** The part of a `MessageEvent` the channel reads. */
export interface MessageEventShape {
  readonly source: unknown;
  readonly origin: string;
  readonly data: unknown;
}

/** The host page's window: where the proxy's messages arrive. */
export interface HostWindow {
  addEventListener(type: 'message', listener: (event: MessageEventShape) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEventShape) => void): void;
}

/** The proxy iframe. */
export interface AppFrame {
  readonly contentWindow: PostTarget | null;
  src: string;
  readonly style: { width: string; height: string; border: string };
  setAttribute(name: string, value: string): void;
  remove(): void;
}

/** Where views are mounted: an element of the host page. */
export interface AppContainer {
  readonly ownerDocument: {
    createElement(tag: 'iframe'): unknown;
    readonly defaultView: unknown;
  };
  appendChild(node: never): unknown;
}
