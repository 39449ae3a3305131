import { HttpException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Length, Matches, Max, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { describeFieldProblems, FieldProblemOfValue, FieldValidationPipe, httpErrorFields } from './field-problems';

const evenOnly: FieldProblemOfValue = (value) => (typeof value === 'number' && value % 2 === 0 ? undefined : { rule: 'even', message: 'Enter an even number.' });

describeFieldProblems('even', evenOnly);

class Keyword {
  @IsString() @MaxLength(8) text!: string;
}

class Body {
  @IsString() @Length(1, 64) new_username!: string;
  @IsString() @Matches(/^\d{6}$/, { message: 'code must be six digits' }) code!: string;
  @IsInt() @Max(170) days!: number;
  @ValidateBy({ name: 'even', validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 } }) pair!: number;
  @ValidateNested({ each: true }) @Type(() => Keyword) keywords!: Keyword[];
}

async function refusal(value: unknown): Promise<{ message: unknown; fields: unknown }> {
  const pipe = new FieldValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });
  const error = await pipe.transform(value, { type: 'body', metatype: Body }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HttpException)) throw new Error('expected a 400');
  expect(error.getStatus()).toBe(400);
  const response = error.getResponse() as { message: unknown };
  return { message: response.message, fields: httpErrorFields(response) };
}

describe('FieldValidationPipe', () => {
  it('answers each broken rule on its field, with its limit and a sentence without the API name', async () => {
    const { message, fields } = await refusal({ new_username: 'x'.repeat(65), code: '12', days: 200, pair: 3, keywords: [{ text: 'ok' }, { text: 'much too long' }], extra: 1 });
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'new_username', rule: 'too_long', max: 64, message: 'Use at most 64 characters.' },
        { field: 'code', rule: 'format', message: 'Check this value.' },
        { field: 'days', rule: 'too_large', max: 170, message: 'Enter 170 or less.' },
        { field: 'pair', rule: 'even', message: 'Enter an even number.' },
        { field: 'keywords.1.text', rule: 'too_long', max: 8, message: 'Use at most 8 characters.' },
        { field: 'extra', rule: 'unknown_field', message: 'This field is not part of this form; reload the page.' },
      ]),
    );
    for (const field of fields as Array<{ message: string }>) expect(field.message).not.toMatch(/new_username|keywords|\.\d+\./);
    // The message stays what Nest gives, for programs that read it.
    expect(message).toEqual(expect.arrayContaining(['new_username must be shorter than or equal to 64 characters', 'keywords.1.text must be shorter than or equal to 8 characters']));
  });

  it('tells an empty text from a long one', async () => {
    const { fields } = await refusal({ new_username: '', code: '123456', days: 1, pair: 2, keywords: [] });
    expect(fields).toEqual([{ field: 'new_username', rule: 'required', message: 'Fill in this field.' }]);
  });
});
