package event

// CheckpointRecordedData is the payload of checkpoint.recorded: the
// checkpoint Seq of tool call ToolCallID, the files it changed and the paths
// noted, not stored ("path: reason").
type CheckpointRecordedData struct {
	ToolCallID string               `json:"toolCallId"`
	Seq        uint64               `json:"seq"`
	Files      []CheckpointFileData `json:"files"`
	Noted      []string             `json:"noted,omitempty"`
}

// CheckpointFileData is one changed file of a checkpoint: its workspace
// path, its sizes in bytes before and after (-1: absent, so created or
// deleted).
type CheckpointFileData struct {
	Path   string `json:"path"`
	Before int64  `json:"before"`
	After  int64  `json:"after"`
}

// SessionRewoundData is the payload of session.rewound: the turn (from 1)
// rewound to before, whether code and conversation were, the files
// restored, the files changed outside pincer since the checkpoint that were
// kept ("path: how"; a workbench rewind whose second request was denied),
// and the branch session a conversation rewind started.
type SessionRewoundData struct {
	Turn         int      `json:"turn"`
	Code         bool     `json:"code"`
	Conversation bool     `json:"conversation"`
	Files        []string `json:"files,omitempty"`
	Kept         []string `json:"kept,omitempty"`
	Branch       string   `json:"branch,omitempty"`
	Forced       bool     `json:"forced,omitempty"`
}
