package pages

import (
	"math"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
)

// sayRefusal is refusal e in the viewer's language: kit.WriteError asks
// it for every refusal a page shows (the API's stay English).
func sayRefusal(c echo.Context, e *errs.Error) string {
	return refusalText(languageOf(c), e)
}

// refusalText is refusal e said in l: the message of its detail, else
// of its code, then which rule an unreadable position breaks
// (positionReason) and how long to wait when it says. English, the source,
// keeps the service's own sentence, which may name what was refused;
// a refusal no message says keeps it too.
func refusalText(l *i18n.Language, e *errs.Error) string {
	if l == nil || l.Code == i18n.Builtin().Source().Code {
		return e.Msg
	}
	id := detailMessage(e.Detail)
	if id == "" {
		id = codeMessage(e.Code)
	}
	if id == "" {
		return e.Msg
	}
	msg := l.T(id)
	if why := positionReason(l, e); why != "" && e.Detail == errs.BadFEN { // which rule the position breaks
		msg += " " + why
	}
	if e.RetryAfter > 0 && e.Code == errs.TooMany {
		msg += " " + waitText(l, e.RetryAfter)
	}
	return msg
}

// waitText says how long to wait before trying again: in seconds up to
// two minutes, else in whole minutes, rounded up.
func waitText(l *i18n.Language, wait time.Duration) string {
	if wait <= 2*time.Minute {
		return l.N("error.retryAfter", int(math.Ceil(wait.Seconds())))
	}
	return l.N("error.retryAfterMinutes", int(math.Ceil(wait.Minutes())))
}

// detailMessage is the message id of a refusal's detail, "" for none.
func detailMessage(d errs.Detail) string {
	switch d {
	case errs.NotBCN:
		return "error.notBCN"
	case errs.PromotionNeeded:
		return "error.promotionNeeded"
	case errs.NothingToUndo:
		return "error.nothingToUndo"
	case errs.BadInvite:
		return "error.badInvite"
	case errs.SeatTaken:
		return "error.seatTaken"
	case errs.AlreadySeated:
		return "error.alreadySeated"
	case errs.BadOffer:
		return "error.badOffer"
	case errs.NotInvite:
		return "error.notInvite"
	case errs.NoOffer:
		return "error.noOffer"
	case errs.TooLateToAbort:
		return "error.tooLateToAbort"
	case errs.TooEarly:
		return "error.tooEarly"
	case errs.BadPremove:
		return "error.badPremove"
	case errs.BadForecast:
		return "error.badForecast"
	case errs.NoCookie:
		return "error.noCookie"
	case errs.Busy:
		return "error.busy"
	case errs.StoreDown:
		return "error.storeDown"
	case errs.Unreadable:
		return "error.unreadable"
	case errs.RateLimited:
		return "error.rateLimited"
	case errs.TooManyGames:
		return "error.tooManyGames"
	case errs.BadFEN:
		return "error.badFEN"
	case errs.BadPGN:
		return "error.badPGN"
	case errs.BadClock:
		return "error.badClock"
	case errs.BerserkLate:
		return "error.berserkLate"
	case errs.NameNeeded:
		return "error.nameNeeded"
	case errs.OwnSeek:
		return "error.ownSeek"
	case errs.SeekGone:
		return "error.seekGone"
	case errs.TooManySeeks:
		return "error.tooManySeeks"
	case errs.SeeksFromAddress:
		return "error.seeksFromAddress"
	case errs.BadPool:
		return "error.badPool"
	case errs.BotNotAllowed:
		return "error.botNotAllowed"
	case errs.Blocked:
		return "error.blocked"
	case errs.BadColor:
		return "error.badColor"
	case errs.BadName:
		return "error.badName"
	case errs.BadPassword:
		return "error.badPassword"
	case errs.NameTaken:
		return "error.nameTaken"
	case errs.NameLookAlike:
		return "error.nameLookAlike"
	case errs.Named:
		return "error.named"
	case errs.BadLogin:
		return "error.badLogin"
	case errs.TooManyLogins:
		return "error.tooManyLogins"
	case errs.TooManySignups:
		return "error.tooManySignups"
	case errs.NoPlayer:
		return "error.noPlayer"
	case errs.BadRecovery:
		return "error.badRecovery"
	case errs.AccountClosed:
		return "error.accountClosed"
	case errs.BadResetLink:
		return "error.badResetLink"
	case errs.WrongPassword:
		return "error.wrongPassword"
	case errs.RecoveryCodesRate:
		return "error.recoveryCodesRate"
	case errs.EngineBusy:
		return "error.engineBusy"
	case errs.AnalysisRunning:
		return "error.analysisRunning"
	case errs.AnalysisRate:
		return "error.analysisRate"
	case errs.AnalysisLocked:
		return "error.analysisLocked"
	case errs.NoReview:
		return "error.noReview"
	case errs.NothingToReview:
		return "error.nothingToReview"
	case errs.ReviewQueueFull:
		return "error.reviewQueueFull"
	case errs.TooManyReviews:
		return "error.tooManyReviews"
	case errs.ChallengeGone:
		return "error.challengeGone"
	case errs.OwnChallenge:
		return "error.ownChallenge"
	case errs.TooManyChallenges:
		return "error.tooManyChallenges"
	case errs.NoTournament:
		return "error.noTournament"
	case errs.TournamentOver:
		return "error.tournamentOver"
	case errs.BadTournamentName:
		return "error.badTournamentName"
	case errs.BadKind:
		return "error.badKind"
	case errs.BadDuration:
		return "error.badDuration"
	case errs.BadStart:
		return "error.badStart"
	case errs.BadRounds:
		return "error.badRounds"
	case errs.BadInterval:
		return "error.badInterval"
	case errs.NotTournamentGame:
		return "error.notTournamentGame"
	case errs.ChatEmpty:
		return "error.chatEmpty"
	case errs.ChatTooLong:
		return "error.chatTooLong"
	case errs.ChatRepeated:
		return "error.chatRepeated"
	case errs.ChatOff:
		return "error.chatOff"
	case errs.ChatClosed:
		return "error.chatClosed"
	case errs.ChatAnonymous:
		return "error.chatAnonymous"
	case errs.ChatRate:
		return "error.chatRate"
	case errs.BadLanguage:
		return "error.badLanguage"
	case errs.ChatMuted:
		return "error.chatMuted"
	}
	return ""
}

// codeMessage is the message id of a refusal's code, "" for none.
func codeMessage(c errs.Code) string {
	switch c {
	case errs.Invalid:
		return "error.invalid"
	case errs.Illegal:
		return "error.illegal"
	case errs.Banned:
		return "error.banned"
	case errs.Conflict:
		return "error.conflict"
	case errs.GameOver:
		return "error.gameOver"
	case errs.NotFound:
		return "error.notFound"
	case errs.Unauthorized:
		return "error.unauthorized"
	case errs.Forbidden:
		return "error.forbidden"
	case errs.TooMany:
		return "error.tooMany"
	case errs.TooLarge:
		return "error.tooLarge"
	case errs.Timeout:
		return "error.timeout"
	case errs.Unavailable:
		return "error.unavailable"
	case errs.Internal:
		return "error.internal"
	case errs.MethodNotAllowed:
		return "error.methodNotAllowed"
	case errs.UnsupportedMedia:
		return "error.unsupportedMedia"
	case errs.Misdirected:
		return "error.misdirected"
	}
	return ""
}
