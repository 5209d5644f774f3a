package i18n

// goalWords are the words of a lesson's goal box (lessons/goal.go, shown by
// web/static/goal.js): {value} is the knob's setting, {measure} the lesson's
// words for the figure, {label} the knob's label, {} the lesson's found text.
func goalWords() map[string]Text {
	return map[string]Text{
		"goal.label":         {"Goal", "目标"},
		"goal.lead":          {"Goal:", "目标："},
		"goal.found":         {"Found it: {}", "找到了：{}"},
		"goal.notyet":        {"Not yet: at {value}, {measure}.", "还没有：设为 {value} 时，{measure}。"},
		"goal.over.smallest": {"At {value}, {measure}: that meets the goal, but a smaller setting does too. Go lower.", "设为 {value} 时，{measure}：满足目标，但更小的设置也满足，再往小调。"},
		"goal.over.largest":  {"At {value}, {measure}: that meets the goal, but a larger setting does too. Go higher.", "设为 {value} 时，{measure}：满足目标，但更大的设置也满足，再往大调。"},
		"goal.other":         {"The goal counts with the step's other settings as they started: press Reset, then move only {label}.", "目标按本步其他设置的初始值来判断：先按“复原”，再只调“{label}”。"},
	}
}
