import { describe, expect, it } from 'vitest';
import { JumpEstimate } from '../../../main/bridge/jump-estimate';

describe('how far ahead a jump aims', () => {
  it('expects the first jump to take as long as the travel that showed the moment played from', () => {
    expect(new JumpEstimate(250, 1_800).expectedMs).toBe(1_800);
  });

  it('expects no jump quicker than the least, with or without a travel before it', () => {
    expect(new JumpEstimate(250).expectedMs).toBe(250);
    expect(new JumpEstimate(250, 40).expectedMs).toBe(250);
  });

  it('follows the mean of the last three jumps, not the travel nor older jumps', () => {
    const estimate = new JumpEstimate(250, 5_000);
    estimate.observe(900);
    expect(estimate.expectedMs).toBe(900);
    // One jump slowed by a pause of the machine moves the aim by a third of it, not all of it.
    estimate.observe(3_900);
    estimate.observe(1_200);
    expect(estimate.expectedMs).toBe(2_000);
    estimate.observe(1_500);
    expect(estimate.expectedMs).toBe(2_200);
  });
});
