/** The one error body panel-api answers with. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}
