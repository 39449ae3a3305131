import { nextCursor } from './redelivery-sweep.service';

describe('nextCursor', () => {
  it('takes the cursor of the next relation only', () => {
    const link = '<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_123>; rel="next", <https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_999>; rel="prev"';
    expect(nextCursor(link)).toBe('v1_123');
    expect(nextCursor('<https://api.github.com/app/hook/deliveries?cursor=v1_999>; rel="prev"')).toBeUndefined();
    expect(nextCursor(undefined)).toBeUndefined();
  });

  it('refuses a cursor that is not a plain token (it is sent back to GitHub as a query parameter)', () => {
    expect(nextCursor('<https://api.github.com/x?cursor=a%26b%3Dc>; rel="next"')).toBeUndefined();
    expect(nextCursor(`<https://api.github.com/x?cursor=${'a'.repeat(201)}>; rel="next"`)).toBeUndefined();
    expect(nextCursor('<not a url>; rel="next"')).toBeUndefined();
  });
});
