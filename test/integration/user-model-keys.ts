/** API keys the scripted model accepts besides the operator's: test users' own keys (model-settings.test.ts). */
export const USER_MODEL_KEYS = ["sk-user-own-key-1234abcd", "sk-ant-user-key-9876wxyz"] as const;
