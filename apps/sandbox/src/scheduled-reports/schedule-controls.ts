import type { FastifyInstance } from "fastify";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { ReportSchedules } from "./report-schedules.js";
import type { ReportSchedule, ScheduleDelivery } from "./schedule-store.js";

/** A report schedule as the control API shows it. */
export function scheduleToApi(schedule: ReportSchedule) {
  return {
    id: schedule.id,
    name: schedule.name,
    format: schedule.format,
    ...schedule.filters,
    every: schedule.cadence.every,
    ...(schedule.cadence.weekday === undefined ? {} : { weekday: schedule.cadence.weekday }),
    time: schedule.cadence.time,
    recipients: schedule.recipients,
    paused: schedule.paused,
    next_due_at: new Date(schedule.nextDueAt).toISOString(),
  };
}

export function deliveryToApi(delivery: ScheduleDelivery) {
  return {
    due_at: new Date(delivery.dueAt).toISOString(),
    at: new Date(delivery.at).toISOString(),
    period_from: new Date(delivery.periodFrom).toISOString(),
    period_to: new Date(delivery.periodTo).toISOString(),
    rows: delivery.rows,
    outcome: delivery.outcome,
    ...(delivery.messageId ? { message_id: delivery.messageId } : {}),
    ...(delivery.exportJobId ? { export_id: delivery.exportJobId } : {}),
    ...(delivery.detail ? { detail: delivery.detail } : {}),
  };
}

/** A schedule with its latest deliveries, as the control API and the schedule's page show it (404 ApiFailure when none). */
export async function scheduleWithDeliveries(schedules: ReportSchedules, workspace: string, id: string) {
  const schedule = await schedules.get(workspace, id);
  return {
    ...scheduleToApi(schedule),
    deliveries: (await schedules.deliveries(workspace, schedule.id)).map(deliveryToApi),
  };
}

/** Report schedules on the control API: what the dashboard's Schedules pages do, scriptable in tests. */
export function registerScheduleControls(
  control: FastifyInstance,
  schedules: ReportSchedules,
  { workspaceOf }: ControlContext,
): void {
  control.post("/_sandbox/schedules", async (request, reply) => {
    const schedule = await schedules.create(workspaceOf(request, "A report schedule"), request.body);
    reply.code(201).header("Location", `/_sandbox/schedules/${schedule.id}`);
    return scheduleToApi(schedule);
  });

  control.get("/_sandbox/schedules", async (request) => ({
    data: (await schedules.list(workspaceOf(request, "Report schedules"))).map(scheduleToApi),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request) =>
    scheduleWithDeliveries(schedules, workspaceOf(request, "A report schedule"), request.params.id),
  );

  control.put<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request) =>
    scheduleToApi(await schedules.replace(workspaceOf(request, "A report schedule"), request.params.id, request.body)),
  );

  control.delete<{ Params: { id: string } }>("/_sandbox/schedules/:id", async (request, reply) => {
    await schedules.remove(workspaceOf(request, "A report schedule"), request.params.id);
    return reply.code(204).send();
  });
}
