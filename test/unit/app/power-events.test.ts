import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { followPowerEvents } from '../../../main/app/power-events';

describe('sleep and resume', () => {
  it('re-establishes every watch on resume, stale since the suspend', () => {
    const powerMonitor = new EventEmitter();
    const target = { reconnect: vi.fn() };
    let now = 1_000;
    const stop = followPowerEvents(powerMonitor as never, target, () => now);
    powerMonitor.emit('suspend');
    now = 61_000;
    powerMonitor.emit('resume');
    expect(target.reconnect).toHaveBeenCalledWith('resumed from sleep', 1_000);
    stop();
    powerMonitor.emit('resume');
    expect(target.reconnect).toHaveBeenCalledTimes(1);
  });

  it('still reconnects on a resume whose suspend it did not see', () => {
    const powerMonitor = new EventEmitter();
    const target = { reconnect: vi.fn() };
    followPowerEvents(powerMonitor as never, target);
    powerMonitor.emit('resume');
    expect(target.reconnect).toHaveBeenCalledWith('resumed from sleep', undefined);
  });
});
