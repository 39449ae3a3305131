import { burstSendAt, windowSendAt } from './notification-outbox.service';

const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1, 12, 0, seconds));

describe('aggregation rules', () => {
  describe('windowSendAt', () => {
    const settings = { windowMs: 60_000 };
    it('sends the first notification of a group at once', () => {
      expect(windowSendAt(settings, undefined, at(0))).toBeUndefined();
    });
    it('merges one that follows within the window, sent when the window of the latest ends', () => {
      expect(windowSendAt(settings, at(0), at(20))).toEqual(at(60));
      expect(windowSendAt(settings, at(0), at(59))).toEqual(at(60));
    });
    it('sends on its own once the window has passed', () => {
      expect(windowSendAt(settings, at(0), at(60))).toBeUndefined();
    });
    it('never merges with a window of 0', () => {
      expect(windowSendAt({ windowMs: 0 }, at(0), at(0))).toBeUndefined();
    });
  });

  describe('burstSendAt', () => {
    const settings = { burstThreshold: 15, burstWindowMs: 300_000 };
    it('is no burst below the threshold', () => {
      expect(burstSendAt(settings, 14, at(0), at(10))).toBeUndefined();
    });
    it('joins the summary at the threshold, sent when the burst window of the oldest ends', () => {
      expect(burstSendAt(settings, 15, at(0), at(10))).toEqual(new Date(at(0).getTime() + 300_000));
    });
    it('sends at once when that end is already past', () => {
      expect(burstSendAt({ burstThreshold: 2, burstWindowMs: 5_000 }, 3, at(0), at(30))).toEqual(at(30));
    });
    it('is switched off by a threshold or burst window of 0', () => {
      expect(burstSendAt({ burstThreshold: 0, burstWindowMs: 300_000 }, 100, at(0), at(1))).toBeUndefined();
      expect(burstSendAt({ burstThreshold: 15, burstWindowMs: 0 }, 100, at(0), at(1))).toBeUndefined();
    });
  });
});
