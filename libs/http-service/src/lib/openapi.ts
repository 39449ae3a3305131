import { applyDecorators, HttpStatus, INestApplication, RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { ApiResponse, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { STATUS_CODES } from 'node:http';

/** What the code itself says about one route handler, keyed by its OpenAPI operationId. */
export interface RouteFacts {
  /** `@Public()`: the global guard lets the request through without credentials. */
  isPublic: boolean;
  /** The status Nest answers on success; undefined when the handler writes the reply itself (`@Res()`). */
  successStatus?: number;
  /** The handler takes the request body (or its raw bytes): malformed or oversized bodies are refused. */
  readsBody: boolean;
  /** A body, or a query/path/header argument checked by the ValidationPipe (a DTO class) or a parse pipe. */
  validatesInput: boolean;
}

const PLAIN_TYPES = new Set<unknown>([String, Number, Boolean, Object, Array, undefined]);
const INPUT_ARGUMENTS = new Set<number>([RouteParamtypes.QUERY, RouteParamtypes.PARAM, RouteParamtypes.HEADERS]);

interface RouteArgument {
  index: number;
  pipes?: unknown[];
}

/**
 * Reads every controller handler of a built (not necessarily listening) application: whether it
 * is public, its success status and what input it validates. Keys are Nest's default operationIds
 * (`Controller_method`), the ones the OpenAPI document carries.
 */
export function collectRouteFacts(app: INestApplication, isPublicKey: string): Map<string, RouteFacts> {
  const reflector = new Reflector();
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller) continue;
      const prototype = controller.prototype as object;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        if (name === 'constructor') continue;
        // Read descriptors, not values: a getter on the prototype must not run.
        const handler: unknown = Object.getOwnPropertyDescriptor(prototype, name)?.value;
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const args = Object.entries(
          (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArgument>,
        ).map(([key, argument]) => ({ type: Number(key.split(':')[0]), ...argument }));
        const paramTypes = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as unknown[];
        const writesReply = args.some((argument) => argument.type === RouteParamtypes.RESPONSE);
        const readsBody = args.some((argument) => argument.type === RouteParamtypes.BODY || argument.type === RouteParamtypes.RAW_BODY);
        const validatesInput =
          readsBody ||
          args.some(
            (argument) =>
              INPUT_ARGUMENTS.has(argument.type) && ((argument.pipes?.length ?? 0) > 0 || !PLAIN_TYPES.has(paramTypes[argument.index])),
          );
        const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
        facts.set(`${controller.name}_${name}`, {
          isPublic: reflector.getAllAndOverride<boolean>(isPublicKey, [handler, controller]) === true,
          successStatus: writesReply ? undefined : (httpCode ?? (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK)),
          readsBody,
          validatesInput,
        });
      }
    }
  }
  return facts;
}

/**
 * The error responses a handler answers with besides the ones completeOpenApiDocument derives
 * (401, 400, 413), each with what it means: `@ApiErrorResponses({ 404: 'not_found: no such repository' })`.
 * The service's error body is filled in when the document is completed.
 */
export function ApiErrorResponses(responses: Record<number, string>): MethodDecorator & ClassDecorator {
  return applyDecorators(...Object.entries(responses).map(([status, description]) => ApiResponse({ status: Number(status), description })));
}

export interface OpenApiCompletion {
  facts: Map<string, RouteFacts>;
  /** Name and schema of the one JSON error body the service answers with. */
  errorSchema: { name: string; schema: SchemaObject };
  /** What a 401 means on a protected operation, and on a body or input refusal. */
  descriptions: { unauthorized: string; badRequest: string; payloadTooLarge: string };
  /**
   * Every operation answers 503 while the service starts or shuts down (see LifecycleServer): the
   * error body on API paths, `{"status": "starting" | "shutting_down"}` on the health paths.
   */
  unavailable: { description: string; healthPaths: readonly string[] };
  /** Service-specific changes to one operation, run after the generic ones. */
  adjustOperation?: (operation: OperationObject, method: string, path: string, facts: RouteFacts) => void;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const UNAVAILABLE_RESPONSE = 'ServiceUnavailable';

/** The 503 of the starting or stopping service, merged into a 503 the operation documents itself. */
function addUnavailable(
  operation: OperationObject,
  unavailable: OpenApiCompletion['unavailable'],
  path: string,
  headers: Record<string, { description: string; schema: SchemaObject }>,
): void {
  const own = operation.responses['503'];
  if (unavailable.healthPaths.includes(path)) {
    if (own) return;
    operation.responses['503'] = {
      description: unavailable.description,
      headers,
      content: {
        'application/json': {
          schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['starting', 'shutting_down'] } } },
        },
      },
    };
  } else if (!own) {
    operation.responses['503'] = { $ref: `#/components/responses/${UNAVAILABLE_RESPONSE}` };
  } else if (!('$ref' in own)) {
    own.description = `${own.description}; or ${unavailable.description.charAt(0).toLowerCase()}${unavailable.description.slice(1)}`;
  }
}

/** Adds `status` with `description` unless the operation already documents it. */
export function addErrorResponse(operation: OperationObject, status: number, description: string): void {
  operation.responses[String(status)] ??= { description };
}

function errorContent(schemaName: string): ResponseObject['content'] {
  return { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } };
}

/**
 * Turns the document Nest generates into one that tells what the code does, where Nest's
 * generator cannot express it: public operations declare `security: []` (unless they name the
 * scheme their handler checks itself), operations behind the global guard list 401,
 * operations that take a body list 400 and 413, those that validate input list 400, every error
 * response carries the service's error body. `servers` is the origin the document is served from.
 * Returns the problems it cannot fix, such as a documented success status that is not the one the
 * handler answers with: `npm run openapi` refuses to write a document with problems (fix the
 * decorators), while the running service still serves it.
 */
export function completeOpenApiDocument(document: OpenAPIObject, completion: OpenApiCompletion): { document: OpenAPIObject; problems: string[] } {
  const { facts, errorSchema, descriptions } = completion;
  const mismatches: string[] = [];
  document.servers = [{ url: '/', description: 'The origin this document is served from' }];
  const unavailableHeaders = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' as const } } };
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, [errorSchema.name]: errorSchema.schema },
    responses: {
      ...document.components?.responses,
      [UNAVAILABLE_RESPONSE]: { description: completion.unavailable.description, headers: unavailableHeaders, content: errorContent(errorSchema.name) },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const fact = operation.operationId ? facts.get(operation.operationId) : undefined;
      if (!fact) {
        mismatches.push(`${method.toUpperCase()} ${path}: no handler found for operationId ${operation.operationId ?? '(none)'}`);
        continue;
      }
      if (fact.isPublic) {
        // A public route that names a scheme checks its credentials itself (and documents its 401).
        if (!operation.security?.length) operation.security = [];
      } else {
        if (!operation.security?.length) mismatches.push(`${method.toUpperCase()} ${path}: protected but documents no security scheme`);
        addErrorResponse(operation, HttpStatus.UNAUTHORIZED, descriptions.unauthorized);
      }
      if (fact.validatesInput) addErrorResponse(operation, HttpStatus.BAD_REQUEST, descriptions.badRequest);
      if (fact.readsBody) addErrorResponse(operation, HttpStatus.PAYLOAD_TOO_LARGE, descriptions.payloadTooLarge);
      completion.adjustOperation?.(operation, method, path, fact);
      addUnavailable(operation, completion.unavailable, path, unavailableHeaders);
      const documentedSuccess = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
      if (fact.successStatus !== undefined && (documentedSuccess.length !== 1 || documentedSuccess[0] !== String(fact.successStatus))) {
        mismatches.push(
          `${method.toUpperCase()} ${path}: answers ${fact.successStatus} but documents ${documentedSuccess.join(', ') || 'no success status'}`,
        );
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        if (!response.description) response.description = STATUS_CODES[Number(status)] ?? (Number(status) < 400 ? 'Success' : 'Error');
        if (Number(status) >= 400) response.content ??= errorContent(errorSchema.name);
      }
      operation.responses = Object.fromEntries(Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  mismatches.push(...shapelessObjects(document));
  return { document, problems: mismatches };
}

/**
 * Schemas of type object that say nothing of their content: Nest's fallback for a property whose
 * TypeScript type it cannot see (`string | null` among them). Each needs an explicit `type`, or
 * `additionalProperties` when it is a free-form map.
 */
function shapelessObjects(value: unknown, path = '#'): string[] {
  if (!value || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  const found: string[] = [];
  if (
    !Array.isArray(value) &&
    node['type'] === 'object' &&
    !['properties', 'additionalProperties', 'allOf', 'oneOf', 'anyOf', '$ref'].some((key) => key in node)
  ) {
    found.push(`${path}: an object schema with no properties; name its type (type: String for string | null) or its additionalProperties`);
  }
  for (const [key, child] of Object.entries(node)) found.push(...shapelessObjects(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return found;
}
