/**
 * OpenAI-style error bodies of the scripted model (test support), one per status, as real providers
 * send them (a script's `error` response without a body of its own gets one of these).
 */

/** OpenAI-style error body for a status, as real providers send it. */
export function defaultErrorBody(status: number, model: string): { error: Record<string, unknown> } {
  switch (status) {
    case 400:
      return {
        error: {
          message: "Invalid request (scripted 400).",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      };
    case 401:
      return {
        error: {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      };
    case 403:
      return {
        error: {
          message: "Permission denied (scripted 403).",
          type: "permission_error",
          param: null,
          code: null,
        },
      };
    case 404:
      return {
        error: {
          message: `The model \`${model}\` does not exist or you do not have access to it.`,
          type: "invalid_request_error",
          param: null,
          code: "model_not_found",
        },
      };
    case 429:
      return {
        error: {
          message: "Rate limit reached for requests (scripted 429). Please try again later.",
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        },
      };
    case 503:
      return {
        error: {
          message: "The server is overloaded (scripted 503).",
          type: "server_error",
          param: null,
          code: "overloaded",
        },
      };
    default:
      return {
        error: {
          message:
            status >= 500
              ? `The server had an error while processing your request (scripted ${status}).`
              : `Scripted error ${status}.`,
          type: status >= 500 ? "server_error" : "invalid_request_error",
          param: null,
          code: null,
        },
      };
  }
}
