import { useEffect, useState } from 'react';
import { useLink } from '../api/ApiContext';

/** Shown when live updates stopped: the page still works, but may be out of date. */
export function LinkBanner() {
  const link = useLink();
  const [lost, setLost] = useState(false);
  useEffect(() => {
    if (link === null) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unlink = link((state) => {
      if (timer !== null) clearTimeout(timer);
      // A blip during a reconnect is normal; only a lasting loss is worth a banner.
      if (state === 'lost') timer = setTimeout(() => setLost(true), 2500);
      else setLost(false);
    });
    return () => {
      unlink();
      if (timer !== null) clearTimeout(timer);
    };
  }, [link]);
  if (!lost) return null;
  return (
    <div className="banner banner-warning" role="alert">
      Live updates stopped: Nuzo’s service is not answering. It keeps retrying; if you restarted <code>nuzo serve --ui</code>, open the new URL it printed.
    </div>
  );
}
