import { PayspecError } from "@payspec/client-core";

/** The file is not the daily report the spec describes: wrong headers, or a row that breaks the spec. */
export class ReportFormatError extends PayspecError {
  override readonly name = "ReportFormatError";
}
