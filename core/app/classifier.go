package app

import (
	"fmt"
	"os"
	"time"

	"pincer/core/agent"
	"pincer/core/config"
)

// classifierProviderTimeout bounds the classifier provider's HTTP requests;
// each classification has its own, shorter bound (ModelClassifier.Timeout).
const classifierProviderTimeout = 60 * time.Second

// classifierFrom builds the stage-two command classifier of
// [permissions.classifier] in the user's config.toml (nil when unset). A
// model that cannot be resolved or reached is a warning and no classifier:
// every undecided command asks, the safe side.
func classifierFrom(src *config.Sources, report *configReport) agent.Classifier {
	settings, errs := src.Classifier()
	report.add(errs)
	if settings.Model == "" {
		return nil
	}
	mc, err := resolveModel(settings.Model, "", os.Getenv, src)
	if err == nil {
		var c *agent.ModelClassifier
		p, perr := newProvider(mc, classifierProviderTimeout)
		if perr == nil {
			c = &agent.ModelClassifier{Provider: p, Model: mc.Model, Name: mc.ID(), Timeout: settings.Timeout}
			return c
		}
		err = perr
	}
	report.warnings = append(report.warnings, fmt.Sprintf("%s: [permissions.classifier] model %q: %v; no classifier: commands no rule decides ask", settings.Path, settings.Model, err))
	return nil
}
