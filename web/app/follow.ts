import { useEffect, useState } from 'preact/hooks';

/** How close to the bottom still counts as "at the latest" (a wheel notch is about 100 px). */
const NEAR_BOTTOM_PX = 48;

/** How long after a fold is opened or closed a change of size is taken as the fold's. */
const TOGGLE_GRACE_MS = 300;

function atBottom(): boolean {
  return innerHeight + scrollY >= document.documentElement.scrollHeight - NEAR_BOTTOM_PX;
}

function scrollToBottom(): void {
  // The very bottom of the document, not a marker: the sticky prompt box sits below the last message in the
  // flow, so anything short of the end leaves the newest lines (or an approval's buttons) under it.
  scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
}

/**
 * Keeps the newest content on screen while the reader has not scrolled up: whenever `content` grows (a message
 * streams, an approval arrives, a tool's output unfolds) the page follows to its end. Scrolling up stops the
 * following until the reader scrolls back down or calls `jump`.
 */
export function useFollowLatest(content: HTMLElement | null): { following: boolean; jump: () => void } {
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    let mine = true;
    let last = scrollY;
    // Only a move up is the reader leaving: the browser's own adjustments (a shorter page clamping the
    // position) must not end the following.
    const onScroll = () => {
      if (!mine) return;
      if (atBottom()) setFollowing(true);
      else if (scrollY < last) setFollowing(false);
      last = scrollY;
    };
    addEventListener('scroll', onScroll, { passive: true });
    return () => {
      mine = false;
      removeEventListener('scroll', onScroll);
    };
  }, []);

  useEffect(() => {
    if (!content || !following) return;
    scrollToBottom();
    // A reader who opens or closes a fold (reasoning, a tool's output) keeps their place: that growth is theirs,
    // not new content. If it pushed the end out of sight, the page stops following (and offers the way back).
    // (A click on a summary comes before the layout; the `toggle` event may come after the observer's turn.)
    let toggledAt = -Infinity;
    const onClick = (event: Event) => {
      if (!(event.target as Element).closest?.('summary')) return;
      toggledAt = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => setFollowing(atBottom())));
    };
    const observer = new ResizeObserver(() => {
      if (performance.now() - toggledAt > TOGGLE_GRACE_MS) scrollToBottom();
    });
    observer.observe(content);
    content.addEventListener('click', onClick, true);
    return () => {
      observer.disconnect();
      content.removeEventListener('click', onClick, true);
    };
  }, [content, following]);

  const jump = () => {
    scrollToBottom();
    setFollowing(true);
  };
  return { following, jump };
}
