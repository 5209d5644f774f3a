package protocol

import "fmt"

// The checks DecodeCommand runs on a command's arguments, after its JSON
// has been read.

func (c Load) check() error {
	if (c.Left == nil) != (c.Right == nil) {
		return fmt.Errorf("load needs both left and right for a comparison, e.g. %s", Example("load", "left"))
	}
	if c.Left != nil {
		return c.checkSides()
	}
	if c.YAML == "" && c.Scenario == "" {
		return fmt.Errorf("load needs yaml (a scenario) or scenario (a built-in name), e.g. %s", Example("load", ""))
	}
	if len(c.YAML) > MaxYAML {
		return fmt.Errorf("load: the scenario is too long: at most %d KiB", MaxYAML>>10)
	}
	return nil
}

// checkSides checks a comparison's left and right.
func (c Load) checkSides() error {
	if c.YAML != "" || c.Scenario != "" {
		return fmt.Errorf("load takes either yaml or scenario, or left and right, not both")
	}
	for i, s := range []*Side{c.Left, c.Right} {
		name := [2]string{"left", "right"}[i]
		switch {
		case s.YAML == "" && s.Scenario == "":
			return fmt.Errorf("load %s needs yaml (a scenario) or scenario (a built-in name)", name)
		case len(s.YAML) > MaxYAML:
			return fmt.Errorf("load %s's scenario is too long: at most %d KiB", name, MaxYAML>>10)
		case len([]rune(s.Label)) > MaxLabel:
			return fmt.Errorf("load %s's label is longer than %d characters; shorten it", name, MaxLabel)
		}
	}
	return nil
}

func (c Seek) check() error {
	if !(c.TUs >= 0) || c.TUs > MaxSeekUs {
		return fmt.Errorf("seek needs t_us from 0 to %g, e.g. %s", float64(MaxSeekUs), Example("seek", ""))
	}
	return nil
}

func (c Speed) check() error {
	if !(c.UsPerS > 0) || c.UsPerS > MaxSpeedUs {
		return fmt.Errorf("speed needs us_per_s above 0 and at most %g, e.g. %s", float64(MaxSpeedUs), Example("speed", ""))
	}
	return nil
}

func (c Tap) check() error {
	if !(c.X >= 0 && c.X <= maxTap) || !(c.Y >= 0 && c.Y <= maxTap) {
		return fmt.Errorf("tap needs x and y from 0 to %d (CSS px from the canvas's top left), e.g. %s", maxTap, Example("tap", ""))
	}
	return nil
}

func (c Check) check() error {
	if c.Scenario != "" || len(c.Sets) > 0 {
		return fmt.Errorf("check takes yaml (the scenario's text) only, e.g. %s", Example("check", ""))
	}
	return checkYAML("check", c.YAML)
}

func (c AskSource) check() error {
	if c.YAML == "" && c.Scenario == "" {
		return fmt.Errorf("source needs yaml (a scenario) or scenario (a built-in name), e.g. %s", Example("source", ""))
	}
	if c.YAML != "" && c.Scenario != "" {
		return fmt.Errorf("source takes yaml (a scenario) or scenario (a built-in name), not both, e.g. %s", Example("source", ""))
	}
	return checkYAML("source", c.YAML)
}

func checkYAML(op, yaml string) error {
	if len(yaml) > MaxYAML {
		return fmt.Errorf("%s: the scenario is too long: at most %d KiB", op, MaxYAML>>10)
	}
	return nil
}

func (c Inspect) check() error {
	if c.Dir != -1 && c.Dir != 0 && c.Dir != 1 {
		return fmt.Errorf("inspect needs dir -1 (the previous node or link), 1 (the next) or 0 (close the tooltip), e.g. %s", Example("inspect", ""))
	}
	return nil
}
