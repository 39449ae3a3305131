import { Body, Controller, Get, HttpCode, INestApplication, Param, ParseIntPipe, Post, Query, Res, SetMetadata } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiCreatedResponse, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiSecurity, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { IsOptional, IsString } from 'class-validator';
import { collectRouteFacts, completeOpenApiDocument, OpenApiCompletion } from './openapi';

const PUBLIC = 'test:isPublic';

class ThingDto {
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() note?: string | null;
}

class ListQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() q?: string;
}

@Controller('things')
@ApiSecurity('bearer')
class ThingsController {
  @Get()
  @ApiOkResponse({ type: [ThingDto] })
  list(@Query() _query: ListQuery): ThingDto[] {
    return [];
  }

  @Get(':id')
  @ApiOkResponse({ type: ThingDto })
  one(@Param('id', ParseIntPipe) _id: number): ThingDto {
    return { name: 'x' };
  }

  @Get('plain/:name')
  @ApiOkResponse({ type: ThingDto })
  plain(@Param('name') name: string): ThingDto {
    return { name };
  }

  @Post()
  @ApiOkResponse({ type: ThingDto })
  create(@Body() body: ThingDto): ThingDto {
    return body;
  }

  @Post('rename')
  @HttpCode(200)
  @ApiOkResponse({ type: ThingDto })
  rename(@Body() body: ThingDto): ThingDto {
    return body;
  }

  @Post('raw')
  @ApiCreatedResponse({ type: ThingDto })
  raw(@Res() _reply: unknown): void {
    return undefined;
  }

  /** A getter on the prototype: must not run while the handlers are read. */
  get explodes(): never {
    throw new Error('getter ran');
  }
}

@Controller('health')
@SetMetadata(PUBLIC, true)
class HealthController {
  @Get()
  @ApiOkResponse({ description: 'alive' })
  health(): string {
    return 'ok';
  }
}

const completion = (app: INestApplication): OpenApiCompletion => ({
  facts: collectRouteFacts(app, PUBLIC),
  errorSchema: { name: 'ErrorBody', schema: { type: 'object', properties: { message: { type: 'string' } } } },
  descriptions: { unauthorized: 'no token', badRequest: 'bad input', payloadTooLarge: 'too big' },
  unavailable: { description: 'Starting or stopping', healthPaths: ['/health'] },
});

describe('OpenAPI completion', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const module = await Test.createTestingModule({ controllers: [ThingsController, HealthController] }).compile();
    app = module.createNestApplication(new FastifyAdapter());
  });

  afterAll(async () => {
    await app.close();
  });

  it('reads what each handler answers and validates from the code', () => {
    const facts = collectRouteFacts(app, PUBLIC);
    expect(facts.get('ThingsController_list')).toEqual({ isPublic: false, successStatus: 200, readsBody: false, validatesInput: true });
    expect(facts.get('ThingsController_one')).toMatchObject({ validatesInput: true });
    expect(facts.get('ThingsController_plain')).toMatchObject({ validatesInput: false });
    expect(facts.get('ThingsController_create')).toEqual({ isPublic: false, successStatus: 201, readsBody: true, validatesInput: true });
    expect(facts.get('ThingsController_rename')).toMatchObject({ successStatus: 200 });
    expect(facts.get('ThingsController_raw')).toMatchObject({ successStatus: undefined });
    expect(facts.get('HealthController_health')).toMatchObject({ isPublic: true });
  });

  it('declares security, error responses and servers, and reports what it cannot fix', () => {
    const generated = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const { document, problems } = completeOpenApiDocument(generated, completion(app));
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.paths['/health'].get?.security).toEqual([]);
    expect(Object.keys(document.paths['/health'].get?.responses ?? {})).toEqual(['200', '503']);
    expect(document.paths['/health'].get?.responses['503']).toMatchObject({ content: { 'application/json': { schema: { required: ['status'] } } } });
    const list = document.paths['/things'].get;
    expect(Object.keys(list?.responses ?? {})).toEqual(['200', '400', '401', '503']);
    expect(list?.responses['503']).toEqual({ $ref: '#/components/responses/ServiceUnavailable' });
    expect(document.components?.responses?.['ServiceUnavailable']).toMatchObject({ description: 'Starting or stopping', headers: { 'Retry-After': expect.any(Object) } });
    expect(list?.responses['401']).toEqual({
      description: 'no token',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    });
    expect(Object.keys(document.paths['/things/plain/{name}'].get?.responses ?? {})).toEqual(['200', '401', '503']);
    expect(Object.keys(document.paths['/things/rename'].post?.responses ?? {})).toEqual(['200', '400', '401', '413', '503']);
    expect(document.components?.schemas?.['ErrorBody']).toBeDefined();
    expect(problems).toEqual([
      'POST /things: answers 201 but documents 200',
      expect.stringMatching(/^#\/components\/schemas\/ThingDto\/properties\/note: an object schema with no properties/),
    ]);
  });
});
