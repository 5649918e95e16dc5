import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { TasksService } from "./tasks.service.ts";

export function tasksRoutes(tasks: TasksService) {
  return [
    handle(api.listTasks, ({ query }, { access }) => tasks.list(access, query)),
    handle(api.createTask, ({ body }, { access }) => tasks.create(access, body)),
    handle(api.getTaskStats, ({ query }, { access }) => tasks.stats(access, query)),
    handle(api.getTaskLimits, (_input, { access }) => tasks.getLimits(access)),
    handle(api.saveTaskLimits, ({ body }, { access }) => tasks.saveLimits(access, body)),
    handle(api.uploadTaskCsv, ({ query }, { access, request }) => tasks.upload(access, request, query)),
    handle(api.listTaskLists, ({ query }, { access }) => tasks.lists(access, query)),
    handle(api.changeTaskList, ({ params, body }, { access }) =>
      tasks.changeList(access, params.listId, body.action),
    ),
    handle(api.getTask, ({ params }, { access }) => tasks.get(access, params.id)),
    handle(api.editTask, ({ params, body }, { access }) => tasks.edit(access, params.id, body)),
    handle(api.deleteTask, ({ params }, { access }) => tasks.remove(access, params.id)),
  ];
}
