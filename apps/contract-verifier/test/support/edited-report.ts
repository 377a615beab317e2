import type { FaultRule } from "@payspec/fault-proxy";
import ExcelJS from "exceljs";

/** The daily report's .xlsx with its sheet changed by `edit` on the way to the verifier. */
export function reportEdited(edit: (sheet: ExcelJS.Worksheet) => void): FaultRule["fault"] {
  return {
    kind: "replaceBytes",
    replace: async (bytes) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as never);
      edit(workbook.worksheets[0] as ExcelJS.Worksheet);
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
