package tui

import "fmt"

// costText is the session's cost as the status line and /cost show it,
// never a made-up zero: "" before any model call reported its usage
// (nothing is known yet), "?" once a call reported no price (the sum is then
// unknown), else the sum in US dollars: "$0" only when every call was priced
// at nothing, "<$0.0001" for less than the four decimals show, "$0.0123".
func costText(s Status) string {
	switch {
	case s.ModelCalls == 0:
		return ""
	case s.CostUnknown:
		return "?"
	case s.CostUSD == 0:
		return "$0"
	case s.CostUSD < 0.00005:
		return "<$0.0001"
	}
	return fmt.Sprintf("$%.4f", s.CostUSD)
}
