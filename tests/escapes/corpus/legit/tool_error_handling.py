# value: ["E_PURPOSE", "fail", "tool \"fail\" failed (E_PURPOSE): the tool failed on purpose"]
try:
    await tools.fail()
except ToolCallError as error:
    return [error.code, error.tool_name, str(error)]
