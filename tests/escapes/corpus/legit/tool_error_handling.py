# value: ["E_PURPOSE", "fail", "the tool failed on purpose"]
try:
    await tools.fail()
except ToolCallError as error:
    return [error.code, error.tool_name, str(error)]
