package i18n

import "sync"

// errorWords is the simulation's error formats in Chinese, keyed by the
// English format (sim/msg.F, msg.Errorf and the checkers' fail take it as a
// string literal; TestErrorWordsComplete finds them all). A Chinese format
// takes the English's verbs (%[2]d reorders); the keys, values and units it
// quotes stay as they are.
var errorWords = sync.OnceValue(func() map[string]string {
	return map[string]string{}
})
