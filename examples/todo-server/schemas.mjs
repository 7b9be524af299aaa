// The todo server's JSON Schemas (2020-12): tool inputs, the task, and each tool's outputSchema,
// which admits both envelopes: `{ success: true, … }` and `{ success: false, error: { code, message } }`.

/** The error codes of the todo server (the kit's own VALIDATION_ERROR among them). */
export const ERROR_CODES = ['VALIDATION_ERROR', 'TASK_NOT_FOUND', 'AUTHORIZATION_ERROR', 'DATABASE_ERROR'];

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 1000;
/** Most tasks one `import_tasks` call takes. */
export const IMPORT_MAX = 500;

const uuid = (what) => ({ type: 'string', format: 'uuid', description: `${what} (a UUID)` });
const title = { type: 'string', minLength: 1, maxLength: TITLE_MAX, description: `1–${TITLE_MAX} characters` };
const description = {
  type: 'string',
  maxLength: DESCRIPTION_MAX,
  description: `at most ${DESCRIPTION_MAX} characters`,
};
const timestamp = { type: 'string', format: 'date-time' };

export const TASK = {
  type: 'object',
  properties: {
    task_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    title: { type: 'string' },
    description: { type: ['string', 'null'] },
    is_completed: { type: 'boolean' },
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ['task_id', 'user_id', 'title', 'description', 'is_completed', 'created_at', 'updated_at'],
  additionalProperties: false,
};

const FAILURE = {
  type: 'object',
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      properties: {
        code: { enum: ERROR_CODES },
        message: { type: 'string' },
        paths: { type: 'array', items: { type: 'string' } },
      },
      required: ['code', 'message'],
    },
  },
  required: ['success', 'error'],
};

/** An outputSchema: the success envelope with `properties`, or the failure envelope. */
function output(properties) {
  return {
    type: 'object',
    oneOf: [
      {
        type: 'object',
        properties: { success: { const: true }, ...properties },
        required: ['success', ...Object.keys(properties)],
      },
      FAILURE,
    ],
  };
}

export const INPUT = {
  add_task: {
    type: 'object',
    properties: { user_id: uuid('the owner'), title, description },
    required: ['user_id', 'title'],
    additionalProperties: false,
  },
  list_tasks: {
    type: 'object',
    properties: { user_id: uuid('the owner'), status: { enum: ['all', 'pending', 'completed'], default: 'all' } },
    required: ['user_id'],
    additionalProperties: false,
  },
  get_task: {
    type: 'object',
    properties: { user_id: uuid('the owner'), task_id: uuid('the task') },
    required: ['user_id', 'task_id'],
    additionalProperties: false,
  },
  update_task: {
    type: 'object',
    properties: { user_id: uuid('the owner'), task_id: uuid('the task'), title, description },
    required: ['user_id', 'task_id'],
    additionalProperties: false,
  },
  complete_task: {
    type: 'object',
    properties: { user_id: uuid('the owner'), task_id: uuid('the task') },
    required: ['user_id', 'task_id'],
    additionalProperties: false,
  },
  delete_task: {
    type: 'object',
    properties: { user_id: uuid('the owner'), task_id: uuid('the task') },
    required: ['user_id', 'task_id'],
    additionalProperties: false,
  },
  import_tasks: {
    type: 'object',
    properties: {
      user_id: uuid('the owner'),
      tasks: {
        type: 'array',
        minItems: 1,
        maxItems: IMPORT_MAX,
        description: `the tasks to add, in order (1–${IMPORT_MAX})`,
        items: {
          type: 'object',
          properties: { title, description },
          required: ['title'],
          additionalProperties: false,
        },
      },
    },
    required: ['user_id', 'tasks'],
    additionalProperties: false,
  },
};

export const OUTPUT = {
  add_task: output({ task: TASK }),
  list_tasks: output({ tasks: { type: 'array', items: TASK }, count: { type: 'integer', minimum: 0 } }),
  get_task: output({ task: TASK }),
  update_task: output({ task: TASK }),
  complete_task: output({ task: TASK }),
  delete_task: output({ task_id: { type: 'string', format: 'uuid' }, deleted: { const: true } }),
  import_tasks: output({ tasks: { type: 'array', items: TASK }, count: { type: 'integer', minimum: 1 } }),
};
