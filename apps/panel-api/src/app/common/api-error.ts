import { HttpException, HttpStatus } from '@nestjs/common';

/** The one error body panel-api answers with. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** A domain error with a status and a machine-readable code carried in the message prefix-free. */
export class ApiError extends HttpException {
  constructor(status: HttpStatus, message: string, readonly code?: string) {
    super(message, status);
  }
}
